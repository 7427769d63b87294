/**
 * BIND's validator, `delv`, asked through a resolver with a trust anchor file: the verdict it
 * prints ("; fully validated" for a positive answer, "; negative response, fully validated" for a
 * proven NXDOMAIN or NODATA), its records, and its whole output for a failure's message.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface HostPort {
  host: string;
  port: number;
}

export interface DelvAnswer {
  /** delv proved the answer (or its absence) from the trust anchor down. */
  validated: boolean;
  /** stdout and stderr: delv prints the verdict as a comment, some of it on stderr. */
  output: string;
}

/** Longer than delv's own retries on a busy machine; past it the answer counts as a time-out. */
const DELV_LIMIT_MS = 15_000;

/**
 * Asks `name type` through `server` and validates it with `anchorFile` (a `trust-anchors` clause)
 * from its anchor at `root` (the root by default; a zone whose own key is the anchor otherwise).
 */
export async function delv(anchorFile: string, server: HostPort, name: string, type: string, root = '.'): Promise<DelvAnswer> {
  let output: string;
  try {
    const args = ['-a', anchorFile, `+root=${root}`, `@${server.host}`, '-p', String(server.port), name, type];
    const { stdout, stderr } = await run('delv', args, { timeout: DELV_LIMIT_MS });
    output = `${stdout}\n${stderr}`;
  } catch (e) {
    const err = e as { code?: string | number; stdout?: string; stderr?: string; killed?: boolean };
    if (err.code === 'ENOENT') throw new Error('delv is not installed; this test needs it (Debian: apt-get install bind9-dnsutils)');
    output = `${err.stdout ?? ''}\n${err.stderr ?? ''}${err.killed ? `\ndelv killed after ${DELV_LIMIT_MS / 1000} s` : ''}`;
  }
  return { validated: /^; (negative response, )?fully validated$/m.test(output) && !/^; unsigned answer$/m.test(output), output };
}

/**
 * The rdata of every `type` record in dig's or delv's output, one line each, canonical enough to
 * compare sets: tokens joined by single spaces, the last field (a DS digest, which BIND prints in
 * chunks) joined and upper-cased.
 */
export function dsRecordsIn(output: string, type: 'DS' | 'CDS'): string[] {
  const found = new Set<string>();
  for (const line of output.split('\n')) {
    if (line.startsWith(';')) continue;
    const tokens = line.trim().split(/\s+/);
    if (tokens[3] !== type || tokens.length < 8) continue;
    const [tag, algorithm, digestType, ...digest] = tokens.slice(4);
    found.add(`${tag} ${algorithm} ${digestType} ${digest.join('').toUpperCase()}`);
  }
  return [...found].sort();
}

/** The delete form of CDS (RFC 8078 §4): the child asks its parent to remove every DS. */
export const isDeleteCds = (records: readonly string[]) => records.length === 1 && records[0] === '0 0 0 00';

/** Two DS sets hold the same records. */
export const sameDsSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((r, i) => r === [...b].sort()[i]);
