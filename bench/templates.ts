/**
 * Bounded work (`npm run bench -- templates`): /healthz's slowest answer while the largest template
 * apply one request may make runs (MAX_RECORDS_PER_ZONE records, 200,000 by default, into one zone:
 * its preview, then its write), beside /healthz's answer when idle; and the apply's own time beside
 * an import of the same records as a zone file (the same writes, without the preview), into a
 * zone of another server with an empty database as the apply's was. The built server, as npm start
 * runs it, with its default limits.
 */
import { cli, startServer } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const ms = (t: number) => `${Math.round(t * 10) / 10} ms`;
const s = (t: number) => `${(t / 1000).toFixed(1)} s`;
/** Records per RRset: a template holds at most 100,000 RRsets. */
const PER_SET = 10;
/** MAX_RECORDS_PER_ZONE's default (200,000) less the zone's own apex NS pair: the most one apply may build in one zone. */
const RECORDS = Math.floor((200_000 - 2) / PER_SET) * PER_SET;

/** A started server with a user, and a client for its API that throws on any error status. */
async function serverWithUser() {
  const server = await startServer({ LOG_LEVEL: 'warn' });
  cli(server.dataDir, 'users', 'add', 'bench');
  const token = cli(server.dataDir, 'tokens', 'create', 'bench').at(-1)!;
  const call = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': type }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }).catch((e: unknown) => {
      // fetch says only "fetch failed": the cause is what the table should show.
      throw new Error(`${method} ${path}: ${e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e)}`);
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  return { server, call };
}

export async function benchTemplates(): Promise<Row[]> {
  const { server, call } = await serverWithUser();
  try {
    await call('POST', '/domains', { name: 'applied.test' });
    const sets = RECORDS / PER_SET;
    const address = (i: number, j: number) => `10.${(i >> 8) & 255}.${i & 255}.${j + 1}`;
    const rrsets = Array.from({ length: sets }, (_, i) => ({ name: `h${i}`, record_type: 'A', ttl: 300, records: Array.from({ length: PER_SET }, (_, j) => address(i, j)) }));
    const id = (JSON.parse(await call('POST', '/templates', { name: 'largest', rrsets })) as { id: number }).id;

    const healthz = async () => {
      const t = performance.now();
      await (await fetch(`${server.url}/healthz`)).text();
      return performance.now() - t;
    };
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push(await healthz());
    idle.sort((a, b) => a - b);

    // /healthz asked again and again, 5 ms apart, for as long as the apply runs.
    let done = false;
    const during: number[] = [];
    const probe = (async () => {
      while (!done) {
        during.push(await healthz());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const t0 = performance.now();
    try {
      await call('POST', `/templates/${id}/apply`, { zones: ['applied.test'] });
    } finally {
      done = true;
      await probe;
    }
    const applyMs = performance.now() - t0;
    process.stderr.write(`  apply: ${s(applyMs)}, /healthz asked ${during.length} times\n`);
    const worst = Math.max(...during);

    await server.stop();
    const other = await serverWithUser();
    let importMs: number;
    try {
      await other.call('POST', '/domains', { name: 'imported.test' });
      const file = rrsets.flatMap((rs, i) => rs.records.map((_, j) => `h${i} 300 IN A ${address(i, j)}`)).join('\n');
      const t1 = performance.now();
      await other.call('POST', '/domains/imported.test/zone', `${file}\n`, 'text/dns');
      importMs = performance.now() - t1;
    } finally {
      await other.server.stop();
    }
    process.stderr.write(`  import: ${s(importMs)}\n`);

    const k = RECORDS.toLocaleString('en-US');
    return [
      { name: `Templates: /healthz slowest answer during a ${k}-record apply (${during.length} asked)`, value: ms(worst), reference: `${ms(idle[25]!)} (idle p50)`, ratio: ratio(worst, idle[25]!) },
      { name: `Templates: a ${k}-record apply, preview and write`, value: s(applyMs), reference: `${s(importMs)} (import of the same records)`, ratio: ratio(applyMs, importMs) },
    ];
  } finally {
    await server.stop();
  }
}
