/**
 * API figures: requests/s and p50/p99 of GET /ips, POST …/records and
 * PUT /domains/:name beside a bare Hono JSON handler, and the cost of one record write and
 * one record-list page as a zone grows from 1k to 100k records.
 */
import autocannon from 'autocannon';
import { cli, startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { ratio, type Row } from './table';
import { BEFORE } from './baseline';
import { fillIps, fillZone } from './fill';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/**
 * Seconds of the same load, unmeasured, before the first measurement of each target. A fresh
 * server spends its first seconds compiling hot code (V8's optimizing compiler runs on the one
 * core the server is pinned to: a fifth of it in the first 8 s of record writes); the figures are
 * those of a server that has been up for a while, as one in service is. The references get the
 * same warm-up.
 */
const WARM_UP = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
/**
 * Measurements of each API figure, taken in turn with its reference's: this
 * machine's speed swings by a third from one minute to the next, so one run of each, minutes
 * apart, could show either side a third better than it is. The table gives the median run and
 * the range.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** Measured at 32 connections. */
const CONNECTIONS = 32;

type Result = { rps: number; p50: number; p99: number; errors: number };
/** Rounds of one figure: the median run, the slowest and the fastest. */
type Rounds = Result & { min: number; max: number; runs: number };

async function load(opts: autocannon.Options, warm = WARM_UP): Promise<Result> {
  if (warm > 0) await autocannon({ connections: CONNECTIONS, ...opts, duration: warm });
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

function summary(runs: Result[]): Rounds {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return { ...median, errors: runs.reduce((n, r) => n + r.errors, 0), min: sorted[0]!.rps, max: sorted.at(-1)!.rps, runs: runs.length };
}

/** Each target warmed up once, then measured ROUNDS times, taking turns (the reference first). */
async function rounds(targets: autocannon.Options[]): Promise<Rounds[]> {
  const runs: Result[][] = targets.map(() => []);
  for (let i = 0; i < ROUNDS; i++) for (const [k, t] of targets.entries()) runs[k]!.push(await load(t, i === 0 ? WARM_UP : 0));
  return runs.map(summary);
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const spread = (r: Rounds) => (r.runs > 1 ? ` (${r.runs} runs: ${n0(r.min)}–${n0(r.max)})` : '');
const fmt = (r: Result | Rounds) => `${n0(r.rps)} req/s${'runs' in r ? spread(r) : ''}, p50 ${r.p50} ms, p99 ${r.p99} ms${r.errors ? `, ${r.errors} errors` : ''}`;

export async function benchApi(): Promise<Row[]> {
  const rows: Row[] = [];
  // The reference and zonedeck run side by side on the same core, each idle while the other is measured.
  const bare = await startServer({}, tempDataDir(), { script: 'bench/bare-hono.ts', cpu: 1 });
  const dataDir = tempDataDir();
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ LOG_LEVEL: 'warn' }, dataDir, { cpu: 1 });
    cli(dataDir, 'users', 'add', 'bench');
    const token = cli(dataDir, 'tokens', 'create', 'bench').at(-1)!;
    fillIps(dataDir, 'bench', 50);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = (p: string, init: RequestInit = {}) => fetch(`${server!.url}/api/v1${p}`, { ...init, headers });
    for (const z of ['bench.example', 'z1k.example', 'z10k.example', 'z100k.example']) await api('/domains', { method: 'POST', body: JSON.stringify({ name: z }) });

    const [refGet, ips] = await rounds([{ url: `${bare.url}/json` }, { url: `${server.url}/api/v1/ips?per_page=50`, headers }]);
    rows.push({
      name: 'GET /ips?per_page=50 (50 records), 32 connections',
      value: fmt(ips!),
      reference: `${n0(refGet!.rps)} req/s bare Hono GET${spread(refGet!)}`,
      ratio: ratio(ips!.rps, refGet!.rps),
      before: BEFORE.ips,
    });

    let n = 0;
    const barePost = { url: `${bare.url}/json`, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{"name":"x","record_type":"A","content":"192.0.2.1","ttl":"300"}' };
    const [refPost, post] = await rounds([
      barePost,
      {
        url: `${server.url}/api/v1/domains/bench.example/records`,
        method: 'POST',
        headers,
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `h${n++}`, record_type: 'A', content: '192.0.2.1', ttl: '300' }) }) }],
      },
    ]);
    rows.push({
      name: 'POST /domains/:name/records, 32 connections',
      value: fmt(post!),
      reference: `${n0(refPost!.rps)} req/s bare Hono POST${spread(refPost!)}; aim 3,000/s`,
      ratio: ratio(post!.rps, refPost!.rps),
      before: BEFORE.recordWrites,
    });

    let m = 0;
    const [refPut, put] = await rounds([
      barePost,
      {
        url: `${server.url}/api/v1/domains/bench.example`,
        method: 'PUT',
        headers,
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ minimum_ttl: 300 + (m++ % 1000) }) }) }],
      },
    ]);
    rows.push({ name: 'PUT /domains/:name', value: fmt(put!), reference: `${n0(refPut!.rps)} req/s bare Hono POST${spread(refPut!)}`, ratio: ratio(put!.rps, refPut!.rps), before: BEFORE.domainPut });
    await server.stop();

    // Zone size: fill offline, then measure one write and one list page through the API.
    fillZone(dataDir, 'z1k.example', 1_000);
    fillZone(dataDir, 'z10k.example', 10_000);
    fillZone(dataDir, 'z100k.example', 100_000);
    server = await startServer({ LOG_LEVEL: 'warn' }, dataDir, { cpu: 1 });
    const base: Record<string, Result> = {};
    for (const [label, zone] of [
      ['1k', 'z1k.example'],
      ['10k', 'z10k.example'],
      ['100k', 'z100k.example'],
    ] as const) {
      let k = 0;
      const write = await load({
        url: `${server.url}/api/v1/domains/${zone}/records`,
        method: 'POST',
        headers,
        connections: 1,
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `new${k++}`, record_type: 'TXT', content: 'x' }) }) }],
      });
      const page = await load({ url: `${server.url}/api/v1/domains/${zone}/records?per_page=50&page=2`, headers });
      base[`w${label}`] ??= write;
      base[`p${label}`] ??= page;
      rows.push({
        name: `record write, ${label}-record zone (1 connection)`,
        value: `p50 ${write.p50} ms, p99 ${write.p99} ms`,
        reference: `p50 ${base.w1k!.p50} ms at 1k`,
        ratio: ratio(write.rps, base.w1k!.rps),
      });
      rows.push({
        name: `record list page, ${label}-record zone`,
        value: fmt(page),
        reference: `${n0(base.p1k!.rps)} req/s at 1k`,
        ratio: ratio(page.rps, base.p1k!.rps),
        ...(label === '1k' ? { before: BEFORE.recordPage } : {}),
      });
    }
  } finally {
    await bare.stop();
    await server?.stop();
  }
  return rows;
}
