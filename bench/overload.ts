/**
 * Overload: 2,000 connections of API record writes, each sending its next request the moment it
 * has an answer (as wrk does), against one node with its default shedding (64 served at once,
 * 256 waiting), beside the same flood against a node that sheds nothing; and /healthz asked one
 * request after another meanwhile, beside /healthz on the idle node.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { cli, startServer, tempDataDir } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 2000;

let n = 0;

type Writes = { served: number; p99: number; shed: number; other: number; total: number };

async function writes(url: string, token: string, connections: number, duration: number): Promise<Writes> {
  const r = await autocannon({
    url,
    connections,
    duration,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    // Each write a name of its own: the same record twice would answer 409.
    requests: [
      { method: 'POST', path: '/api/v1/domains/overload.example/records', setupRequest: (r) => ({ ...r, body: JSON.stringify({ name: `w${n++}`, record_type: 'A', content: '192.0.2.1' }) }) },
    ],
  });
  const stats = r.statusCodeStats as Record<string, { count: number }>;
  const count = (f: (code: string) => boolean) => Object.entries(stats).reduce((sum, [code, s]) => sum + (f(code) ? s.count : 0), 0);
  const served = count((c) => c.startsWith('2'));
  const shed = count((c) => c === '503');
  return { served: served / duration, p99: r.latency.p99, shed, other: count((c) => !c.startsWith('2') && c !== '503') + r.errors, total: served + shed };
}

/**
 * /healthz one request after another until `until` settles, each asked by curl on a new connection
 * (as a load balancer's check does) and timed by curl itself: in this process the flood's 2,000
 * connections would hold the probe up before the server did.
 */
async function probeHealth(url: string, until: Promise<unknown>): Promise<{ ms: number[]; failed: number }> {
  let done = false;
  void until.finally(() => (done = true));
  const ms: number[] = [];
  let failed = 0;
  while (!done) {
    const out = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', `${url}/healthz`]).then(
      (r) => r.stdout.split(' '),
      () => ['0', '0'],
    );
    if (out[0] === '200') ms.push(Number(out[1]) * 1000);
    else failed += 1;
  }
  return { ms, failed };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const fmtMs = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms`;

/** One node under the flood, with `env`'s shedding: the writes, and /healthz meanwhile. */
async function flooded(env: Record<string, string>): Promise<{ loaded: Writes; health: { ms: number[]; failed: number }; idle: number[] }> {
  const dataDir = tempDataDir();
  const server = await startServer({ LOG_LEVEL: 'warn', ...env }, dataDir, { cpu: 0 });
  try {
    const token = cli(dataDir, 'tokens', 'create', 'admin').at(-1)!;
    const created = await fetch(`${server.url}/api/v1/domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'overload.example' }),
    });
    if (created.status !== 201) throw new Error(`creating the zone answered ${created.status}`);
    const idle = await probeHealth(server.url, new Promise((r) => setTimeout(r, 2000)));
    const flood = writes(server.url, token, CONNECTIONS, SECONDS);
    const [loaded, health] = await Promise.all([flood, probeHealth(server.url, flood)]);
    return { loaded, health, idle: idle.ms };
  } finally {
    await server.stop();
  }
}

export async function benchOverload(): Promise<Row[]> {
  const shedding = await flooded({});
  const unbounded = await flooded({ HTTP_MAX_INFLIGHT: '999999', HTTP_SHED_LOOP_DELAY_MS: 'off' });
  const fmtWrites = (w: Writes) => `${Math.round(w.served)} writes/s served, p99 ${w.p99} ms, ${Math.round((100 * w.shed) / Math.max(1, w.total))}% answered 503 overloaded, ${w.other} other errors`;
  const fmtHealth = (h: { ms: number[]; failed: number }) => `${fmtMs(h.ms)}, ${h.failed} failed of ${h.ms.length + h.failed}`;
  return [
    {
      name: `API record writes, ${CONNECTIONS} connections, default shedding, ${SECONDS} s`,
      value: fmtWrites(shedding.loaded),
      reference: `without shedding: ${fmtWrites(unbounded.loaded)}`,
      ratio: ratio(shedding.loaded.served, unbounded.loaded.served),
    },
    {
      name: '/healthz during that flood (curl, one after another)',
      value: fmtHealth(shedding.health),
      reference: `without shedding: ${fmtHealth(unbounded.health)}; idle: ${fmtMs(shedding.idle)}`,
      ratio: `p99 ×${(pct(shedding.health.ms, 99) / Math.max(0.1, pct(shedding.idle, 99))).toFixed(1)}`,
    },
  ];
}
