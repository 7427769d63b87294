/**
 * Health-checked pools: DNS answers per second for a pool's name — a failover pool (an ordinary,
 * cached answer) and a weighted pool (one member picked per query, never cached) — beside a plain A
 * record of the same zone, with dnsperf against the real server (server pinned to one core, dnsperf
 * to the other); and the CPU the health checks of 1,000 pools (two members each, HTTP checks every
 * 10 s) cost the server, beside the same server idle with no pool. Alternating rounds, best kept.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { startServer, cli } from '../server/testing/server-process';
import { cpuSeconds, dnsperf } from './dns';
import { fmtQps, ratio, type Row } from './table';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 3;
const POOLS = 1_000;
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

async function call(url: string, token: string, method: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** CPU the server spends over `seconds`, as a share of one core. */
async function cpuShare(pid: number, seconds: number): Promise<number> {
  const before = cpuSeconds(pid);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return (cpuSeconds(pid) - before) / seconds;
}

export async function benchPools(): Promise<Row[]> {
  if (!has('dnsperf') || !has('taskset')) return [{ name: 'Pools: dnsperf or taskset not installed', value: '—', reference: '—', ratio: '—' }];
  const backend = http.createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const port = (backend.address() as { port: number }).port;
  const server = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn', HEALTH_ALLOW_PRIVATE: 'true', MAX_POOLS_PER_USER: String(POOLS + 10) }, undefined, { cpu: 0 });
  const rows: Row[] = [];
  try {
    const token = cli(server.dataDir, 'tokens', 'create', 'admin').at(-1)!;
    const api = (method: string, p: string, body?: unknown) => call(`${server.url}/api/v1${p}`, token, method, body);
    await api('POST', '/domains', { name: 'pools.test' });
    await api('POST', '/domains/pools.test/records', { name: 'plain', record_type: 'A', content: '127.0.0.1' });
    const check = { kind: 'http', port, interval_s: 10 };
    await api('POST', '/domains/pools.test/pools', {
      name: 'failover',
      type: 'A',
      policy: 'failover',
      members: [
        { address: '127.0.0.1', priority: 1 },
        { address: '127.0.0.2', priority: 2 },
      ],
      check,
    });
    await api('POST', '/domains/pools.test/pools', {
      name: 'weighted',
      type: 'A',
      policy: 'weighted',
      members: [
        { address: '127.0.0.1', weight: 3 },
        { address: '127.0.0.2', weight: 1 },
      ],
      check,
    });

    const file = (name: string) => {
      const f = path.join(server.dataDir, `${name}.queries`);
      fs.writeFileSync(f, `${name}.pools.test A\n`);
      return f;
    };
    const files = { plain: file('plain'), failover: file('failover'), weighted: file('weighted') };
    const best: Record<keyof typeof files, number> = { plain: 0, failover: 0, weighted: 0 };
    for (const f of Object.values(files)) await dnsperf(server.dnsPort!, f, 2);
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of Object.keys(files) as (keyof typeof files)[]) best[k] = Math.max(best[k], (await dnsperf(server.dnsPort!, files[k], Math.max(2, Math.round(SECONDS / 2)))).qps);
    }
    rows.push({
      name: 'Pools: DNS answers/s for a failover pool name (dnsperf, 1 core)',
      value: fmtQps(best.failover),
      reference: `plain A record: ${fmtQps(best.plain)}`,
      ratio: ratio(best.failover, best.plain),
    });
    rows.push({
      name: 'Pools: DNS answers/s for a weighted pool name (one member picked per query, uncached)',
      value: fmtQps(best.weighted),
      reference: `plain A record: ${fmtQps(best.plain)}`,
      ratio: ratio(best.weighted, best.plain),
    });

    // The checker: the server idle, then with 1,000 more pools (2,000 HTTP checks every 10 s).
    const idle = await cpuShare(server.child.pid!, 20);
    // Five zones of 200 pools (the most one zone may have).
    for (let z = 0; z < POOLS / 200; z++) {
      await api('POST', '/domains', { name: `z${z}.pools.test` });
      for (let i = 0; i < 200; i++) {
        await api('POST', `/domains/z${z}.pools.test/pools`, { name: `p${i}`, type: 'A', policy: 'all-healthy', members: [{ address: '127.0.0.1' }, { address: '127.0.0.2' }], check });
      }
    }
    // Every pool checked a few times before the measured minute.
    await new Promise((r) => setTimeout(r, 25_000));
    const busy = await cpuShare(server.child.pid!, 60);
    const pct = (x: number) => `${(x * 100).toFixed(1)}% of a core`;
    rows.push({
      name: `Pools: server CPU with ${POOLS.toLocaleString('en-US')} pools checked every 10 s (${(POOLS * 2).toLocaleString('en-US')} HTTP checks)`,
      value: pct(busy),
      reference: `same server, idle: ${pct(idle)}`,
      ratio: `${(((busy - idle) * 1e6) / ((POOLS * 2) / 10) / 1000).toFixed(2)} ms CPU per check`,
    });
  } finally {
    await server.stop();
    backend.close();
  }
  return rows;
}
