/**
 * Trust figures: the time to refuse each import bomb of the audit,
 * beside the time to import a small legitimate file, and /healthz's slowest answer while a
 * 150,000-record file is imported, beside its answer when idle. The built server, as npm start.
 */
import { cli, startServer } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const WIDTH_BOMB = '$GENERATE 0-65535 ${0,200000000} A 192.0.2.1\n'.repeat(5);
const COUNT_BOMB = Array.from({ length: 15 }, (_, k) => `$GENERATE 0-65535 a$-${k} A 192.0.2.1`).join('\n');
const ms = (t: number) => `${Math.round(t * 10) / 10} ms`;

export async function benchBombs(): Promise<Row[]> {
  const server = await startServer({ BULK_BODY_LIMIT_BYTES: String(64 * 1024 * 1024) });
  try {
    cli(server.dataDir, 'users', 'add', 'bench');
    const token = cli(server.dataDir, 'tokens', 'create', 'bench').at(-1)!;
    const post = (path: string, body: string, type = 'text/dns') => fetch(`${server.url}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
    await post('/domains', JSON.stringify({ name: 'bench.test' }), 'application/json');
    const timed = async (body: string) => {
      const t = performance.now();
      const res = await post('/domains/bench.test/zone?dry_run=true', body);
      await res.text();
      return { ms: performance.now() - t, status: res.status };
    };
    // Warm-up, then the median of five of each.
    await timed('www 300 IN A 192.0.2.1\n');
    const median = async (body: string) => {
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await timed(body));
      runs.sort((a, b) => a.ms - b.ms);
      return runs[2]!;
    };
    const legit = await median('www 300 IN A 192.0.2.1\nmail 300 IN A 192.0.2.2\n');
    const width = await median(WIDTH_BOMB);
    const count = await median(COUNT_BOMB);

    const healthz = async () => {
      const t = performance.now();
      await (await fetch(`${server.url}/healthz`)).text();
      return performance.now() - t;
    };
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push(await healthz());
    idle.sort((a, b) => a - b);
    const big = Array.from({ length: 150_000 }, (_, i) => `h${i} 300 IN A 198.51.100.${i % 250}`).join('\n');
    let done = false;
    const during: number[] = [];
    const probe = (async () => {
      while (!done) {
        during.push(await healthz());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const res = await post('/domains/bench.test/zone', big);
    await res.text();
    done = true;
    await probe;
    const worst = Math.max(...during);
    return [
      { name: `Trust: 225-byte width bomb refused (${width.status}), median of 5`, value: ms(width.ms), reference: `${ms(legit.ms)} (2-record import)`, ratio: ratio(width.ms, legit.ms) },
      { name: `Trust: 530-byte count bomb refused (${count.status}), median of 5`, value: ms(count.ms), reference: `${ms(legit.ms)} (2-record import)`, ratio: ratio(count.ms, legit.ms) },
      { name: 'Trust: /healthz slowest answer during a 150k-record import', value: ms(worst), reference: `${ms(idle[25]!)} (idle p50)`, ratio: ratio(worst, idle[25]!) },
    ];
  } finally {
    await server.stop();
  }
}
