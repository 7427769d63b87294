/**
 * One real BIND `named` run by a test: its configuration and files in a temp dir of its own,
 * listening on 127.0.0.1 at a free port, logging to its stderr (kept for the failure message),
 * and ready only once it answers a query the caller names.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { daemonPath } from './daemons';
import { freePort } from './test-server';
import { waitUntil } from './wait-until';

const run = promisify(execFile);

export interface NamedProcess {
  port: number;
  dir: string;
  /** Everything named logged so far. */
  output(): string;
  /** Kills named (SIGTERM, then SIGKILL if it lingers) and removes its directory. */
  stop(): Promise<void>;
}

/** `dig` against 127.0.0.1 at `port` with `args`; its whole output, or '' when it got no answer. */
export async function dig(port: number, ...args: string[]): Promise<string> {
  try {
    return (await run('dig', ['@127.0.0.1', '-p', String(port), '+time=2', '+tries=1', ...args])).stdout;
  } catch {
    return '';
  }
}

/**
 * The options every named of the tests shares (its files in `dir`, 127.0.0.1 at `port` only, no
 * NOTIFY, no control channel), then `extra` option lines.
 */
export const namedOptions = (dir: string, port: number, extra: readonly string[]) => `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  managed-keys-directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  notify no;
${extra.map((line) => `  ${line}\n`).join('')}};
controls { };
`;

export interface NamedOptions {
  /** Names its temp dir and its messages: "authoritative", "resolver". */
  label: string;
  /** named.conf for named in `dir` listening at `port` (`namedOptions` gives the common part). */
  config: (dir: string, port: number) => string;
  /** Files (zone files) written into its dir first, name → text. */
  files?: Record<string, string>;
  /** The query it must answer before it counts as started, and the status expected (NOERROR). */
  ready: { name: string; type: string; status?: string };
}

/** Another process took the free port between our look and named's bind: worth a second port. */
class PortTaken extends Error {}

/**
 * Starts named on a free port with `opts.config`; resolves once it answers `opts.ready`. A port
 * taken meanwhile (two cores, several test files) is tried again on another, twice at most.
 */
export async function startNamed(opts: NamedOptions): Promise<NamedProcess> {
  const named = daemonPath('named', 'bind9');
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(named, await freePort(), opts);
    } catch (e) {
      if (!(e instanceof PortTaken) || attempt === 3) throw e;
    }
  }
}

async function launch(named: string, port: number, opts: NamedOptions): Promise<NamedProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `zonedeck-bind-${opts.label}-`));
  for (const [name, text] of Object.entries(opts.files ?? {})) fs.writeFileSync(path.join(dir, name), text);
  fs.mkdirSync(path.join(dir, 'keys'));
  const conf = path.join(dir, 'named.conf');
  fs.writeFileSync(conf, opts.config(dir, port));
  let output = '';
  // -g: foreground, log to stderr; no -u, so it keeps the test's own user and can write `dir`.
  const child: ChildProcess = spawn(named, ['-g', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const proc: NamedProcess = {
    port,
    dir,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(late);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  const status = opts.ready.status ?? 'status: NOERROR';
  try {
    await waitUntil(
      `named ${opts.label} answering ${opts.ready.name} ${opts.ready.type}`,
      async () => {
        if (/unable to listen on any configured interfaces|address in use/i.test(output)) throw new PortTaken(`named ${opts.label}: port ${port} taken`);
        if (child.exitCode !== null) throw new Error(`named ${opts.label} exited with ${child.exitCode}`);
        return (await dig(port, opts.ready.name, opts.ready.type)).includes(status);
      },
      { everyMs: 200 },
    );
  } catch (e) {
    const log = output;
    await proc.stop();
    if (e instanceof PortTaken) throw e;
    throw new Error(`${(e as Error).message}\n${log}`);
  }
  return proc;
}
