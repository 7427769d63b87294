/**
 * Secondary zones: the time from a change on a real hidden primary (Knot, which sends NOTIFY at
 * its commit) to zonedeck's first answer with it — a one-record change by IXFR, and a whole
 * 100,000-record zone by AXFR (a new secondary) — beside the same one-record change made through
 * zonedeck's own API on a primary zone. Each is the median of a few rounds, polled every 2 ms.
 */
import dgram from 'node:dgram';
import packet from 'dns-packet';
import { KnotPrimary, primaryZoneFile } from '../server/testing/knot-primary';
import { cli, startServer, tempDataDir } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BIG = 100_000;

/** Asks `name A` until the answer holds `address`; resolves with the milliseconds since `from`. */
function firstAnswer(port: number, name: string, address: string, from: number, timeoutMs = 120_000): Promise<number> {
  const sock = dgram.createSocket('udp4');
  let id = 0;
  return new Promise((resolve, reject) => {
    const ask = () => sock.send(packet.encode({ id: ++id & 0xffff, type: 'query', questions: [{ name, type: 'A', class: 'IN' }] }), port, '127.0.0.1');
    const timer = setInterval(() => {
      if (performance.now() - from > timeoutMs) {
        clearInterval(timer);
        sock.close();
        reject(new Error(`${name} was not answered within ${timeoutMs / 1000} s`));
      } else ask();
    }, 2);
    sock.on('message', (m) => {
      const answers = packet.decode(m).answers ?? [];
      if (answers.some((a) => a.type === 'A' && a.data === address)) {
        clearInterval(timer);
        sock.close();
        resolve(performance.now() - from);
      }
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;

export async function benchSecondary(): Promise<Row[]> {
  const dataDir = tempDataDir();
  const server = await startServer({ LOG_LEVEL: 'warn', DNS_PORT: '0', MAX_RECORDS_PER_ZONE: String(BIG + 100) }, dataDir);
  const dns = server.dnsPort!;
  const big = primaryZoneFile('big.bench', 1) + Array.from({ length: BIG }, (_, i) => `h${i} IN A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`).join('\n') + '\n';
  const knot = await KnotPrimary.start(
    [
      { name: 'small.bench', file: primaryZoneFile('small.bench', 1) },
      { name: 'big.bench', file: big },
    ],
    dns,
  );
  try {
    const token = cli(dataDir, 'tokens', 'create', 'admin').at(-1)!;
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    await api('POST', '/domains', { name: 'small.bench', kind: 'secondary', primaries: [knot.address] });
    await api('POST', '/domains', { name: 'own.bench' });
    await firstAnswer(dns, 'www.small.bench', '192.0.2.10', performance.now());

    // A 100,000-record zone: from the secondary's creation to its first answer (one AXFR, one change set).
    let start = performance.now();
    await api('POST', '/domains', { name: 'big.bench', kind: 'secondary', primaries: [knot.address] });
    const axfr = await firstAnswer(dns, `h${BIG - 1}.big.bench`, `10.${((BIG - 1) >> 16) & 255}.${((BIG - 1) >> 8) & 255}.${(BIG - 1) & 255}`, start);

    const ixfr: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const address = `198.51.100.${i + 1}`;
      start = performance.now();
      await knot.set('small.bench', `r${i}`, '300', 'A', address);
      ixfr.push(await firstAnswer(dns, `r${i}.small.bench`, address, start));
      start = performance.now();
      await api('POST', '/domains/own.bench/records', { name: `r${i}`, record_type: 'A', content: address });
      own.push(await firstAnswer(dns, `r${i}.own.bench`, address, start));
    }
    const bigIxfr: number[] = [];
    for (let i = 0; i < Math.min(ROUNDS, 3); i++) {
      const address = `203.0.113.${i + 1}`;
      start = performance.now();
      await knot.set('big.bench', `late${i}`, '300', 'A', address);
      bigIxfr.push(await firstAnswer(dns, `late${i}.big.bench`, address, start));
    }
    const reference = `${ms(median(own))} (the same change through the API, on a primary zone)`;
    return [
      { name: 'secondary: change on the primary → first answer (1 record, IXFR)', value: ms(median(ixfr)), reference, ratio: ratio(median(own), median(ixfr)) },
      {
        name: `secondary: change on the primary → first answer (1 record into ${BIG.toLocaleString('en-US')}, IXFR)`,
        value: ms(median(bigIxfr)),
        reference,
        ratio: ratio(median(own), median(bigIxfr)),
      },
      { name: `secondary: created → first answer (${BIG.toLocaleString('en-US')} records, AXFR)`, value: ms(axfr), reference: '—', ratio: '—' },
    ];
  } finally {
    await knot.stop(true);
    await server.stop();
  }
}
