/**
 * Sustained load: 200 connections of mixed API reads and writes for 30 s, with
 * their errors and p99 beside the p99 of the same mix unloaded; then the same load while
 * dnsperf hammers the DNS port, with the DNS rate beside the DNS rate alone.
 */
import autocannon from 'autocannon';
import { cli, startServer, tempDataDir } from '../server/testing/server-process';
import { dnsperf, fillStore, queryFile, ZONE } from './dns';
import { fmtQps, ratio, type Row } from './table';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);

/** Names of created records stay unique across every run against the same zone. */
let n = 0;

type Mix = { rps: number; p50: number; p99: number; errors: number; total: number; detail: string };

function mixedLoad(url: string, token: string, connections: number, duration: number): Promise<Mix> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration,
        headers,
        requests: [
          { method: 'GET', path: '/api/v1/ips' },
          { method: 'GET', path: `/api/v1/domains/${ZONE}/records?per_page=50&page=3` },
          { method: 'POST', path: `/api/v1/domains/${ZONE}/records`, setupRequest: (r) => ({ ...r, body: JSON.stringify({ name: `load${n++}`, record_type: 'A', content: '192.0.2.1' }) }) },
          { method: 'PUT', path: `/api/v1/domains/${ZONE}`, setupRequest: (r) => ({ ...r, body: JSON.stringify({ minimum_ttl: 300 + (n++ % 600) }) }) },
        ],
      },
      (err, r) => {
        if (err) reject(err);
        else {
          const statuses = Object.entries(r.statusCodeStats as Record<string, { count: number }>).filter(([code]) => !code.startsWith('2'));
          const detail = [
            ...statuses.map(([code, s]) => `${s.count}×${code}`),
            ...(r.timeouts ? [`${r.timeouts} timeouts`] : []),
            ...(r.errors - r.timeouts > 0 ? [`${r.errors - r.timeouts} socket errors`] : []),
          ].join(', ');
          resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, total: r.requests.total, detail });
        }
      },
    );
  });
}

const fmt = (m: Mix) => `${Math.round(m.rps)} req/s, p99 ${m.p99} ms, ${m.errors} errors of ${m.total}${m.detail ? ` (${m.detail})` : ''}`;

export async function benchLoad(): Promise<Row[]> {
  const dataDir = tempDataDir();
  const hosts = await fillStore(dataDir, 1000);
  const queries = queryFile(dataDir, hosts);
  const server = await startServer({ LOG_LEVEL: 'warn', DNS_PORT: '0' }, dataDir, { cpu: 0 });
  const rows: Row[] = [];
  try {
    for (let i = 1; i <= 5; i++) cli(dataDir, 'ips', 'add', 'bench', `192.0.2.${i}`);
    const token = cli(dataDir, 'tokens', 'create', 'bench').at(-1)!;
    const quiet = await mixedLoad(server.url, token, 1, 5);
    const loaded = await mixedLoad(server.url, token, 200, SECONDS);
    rows.push({
      name: `API mixed reads+writes, 200 connections, ${SECONDS} s`,
      value: fmt(loaded),
      reference: `p99 ${quiet.p99} ms unloaded (1 connection)`,
      ratio: `p99 ×${(loaded.p99 / Math.max(1, quiet.p99)).toFixed(1)}`,
    });

    const dnsAlone = await dnsperf(server.dnsPort!, queries, 10);
    const [both, dnsBusy] = await Promise.all([mixedLoad(server.url, token, 200, SECONDS), dnsperf(server.dnsPort!, queries, SECONDS)]);
    rows.push({
      name: 'API mixed, 200 connections, DNS under dnsperf at once',
      value: fmt(both),
      reference: `p99 ${loaded.p99} ms without DNS load`,
      ratio: `p99 ×${(both.p99 / Math.max(1, loaded.p99)).toFixed(1)}`,
    });
    rows.push({
      name: 'DNS under API load at once',
      value: `${fmtQps(dnsBusy.qps)}, ${dnsBusy.lost} lost`,
      reference: `${fmtQps(dnsAlone.qps)} alone`,
      ratio: ratio(dnsBusy.qps, dnsAlone.qps),
    });
  } finally {
    await server.stop();
  }
  return rows;
}
