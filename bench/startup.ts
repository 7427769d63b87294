/**
 * Issue 31, end to end: a store of many zones filled through the services (1,000 zones × 500 A
 * records, 500,000; with BENCH_BIG=1 also 10,000 × 500, 5,000,000), then the built server started
 * on it: the time to its first DNS answer and to fully loaded (`/readyz` ready), DNS q/s over all
 * the zones, and a one-record change through the API until DNS answers it — each beside the same
 * figure on a store of 2 zones × 500 records (1,000) in the same run.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import packet from 'dns-packet';
import { createServices } from '../server/services';
import { CLI_WRITE } from '../server/services/change-sets';
import { openSqliteStore } from '../server/store/sqlite';
import { startServer, tempDataDir } from '../server/testing/server-process';
import { dnsperf } from './dns';
import { ratio, type Row } from './table';

const PER_ZONE = 500;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/** Fills a data dir with `zones` zones of PER_ZONE A records each, every one a zone file import; returns a token of their user. */
async function fill(dir: string, zones: number): Promise<string> {
  const services = createServices(await openSqliteStore(path.join(dir, 'zonedeck.db')), { nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], nsTtl: 3600 });
  const { user } = await services.accounts.addUser('bench');
  for (let z = 0; z < zones; z++) {
    const zone = await services.zones.create(user.id, { name: `zone${z}.test` });
    const lines: string[] = [];
    for (let i = 0; i < PER_ZONE; i++) lines.push(`host${i} 3600 IN A 10.${z & 255}.${(i >> 8) & 255}.${i & 255}`);
    await services.zoneFiles.importInto(zone, (tx) => services.zones.owned(user.id, zone.name, tx), `${lines.join('\n')}\n`, 'merge', CLI_WRITE);
  }
  const { token } = await services.accounts.createToken(user.id, 'bench');
  await services.close();
  return token;
}

/** Whether the server at `port` answers `name` A with an address (one UDP question, 200 ms to answer). */
function answers(port: number, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 200);
    socket.on('message', (msg) => {
      const r = packet.decode(msg) as { rcode?: string; answers?: Array<{ type: string }> };
      done(r.rcode === 'NOERROR' && (r.answers ?? []).some((a) => a.type === 'A'));
    });
    socket.send(packet.encode({ type: 'query', id: 1, questions: [{ type: 'A', name }] }), port, '127.0.0.1');
  });
}

async function until(check: () => Promise<boolean>, everyMs = 10, maxMs = 600_000): Promise<number> {
  const t0 = performance.now();
  while (!(await check())) {
    if (performance.now() - t0 > maxMs) throw new Error('gave up waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return performance.now() - t0;
}

interface Figures {
  records: number;
  fillMs: number;
  firstAnswerMs: number;
  loadedMs: number;
  qps: number;
  changeMs: number;
}

async function measure(zones: number): Promise<Figures> {
  const dir = tempDataDir();
  try {
    let t = performance.now();
    const token = await fill(dir, zones);
    const fillMs = performance.now() - t;
    t = performance.now();
    const server = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn' }, dir, { cpu: 0 });
    try {
      const port = server.dnsPort!;
      // The first zone created is among the first loaded; any answer at all is the first answer.
      await until(() => answers(port, 'host1.zone0.test'));
      const firstAnswerMs = performance.now() - t;
      await until(async () => (await fetch(`${server.url}/readyz`)).status === 200, 20);
      const loadedMs = performance.now() - t;
      const file = path.join(dir, 'queries.txt');
      const lines: string[] = [];
      for (let k = 0; k < 20_000; k++) lines.push(`host${(k * 7919) % PER_ZONE}.zone${(k * 104_729) % zones}.test A`);
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      await dnsperf(port, file, 2);
      const qps = (await dnsperf(port, file, SECONDS)).qps;
      // A one-record change through the API, in a zone in the middle, until DNS answers it.
      const zone = `zone${Math.floor(zones / 2)}.test`;
      t = performance.now();
      const res = await fetch(`${server.url}/api/v1/domains/${zone}/records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'fresh', record_type: 'A', content: '192.0.2.99' }),
      });
      if (!res.ok) throw new Error(`record POST answered ${res.status}`);
      await until(() => answers(port, `fresh.${zone}`), 1);
      const changeMs = performance.now() - t;
      return { records: zones * PER_ZONE, fillMs, firstAnswerMs, loadedMs, qps, changeMs };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;

export async function benchStartup(): Promise<Row[]> {
  const small = await measure(2);
  const sizes = process.env.BENCH_BIG ? [1000, 10_000] : [1000];
  const rows: Row[] = [];
  for (const zones of sizes) {
    const big = await measure(zones);
    const label = `${(big.records / 1e6).toLocaleString('en-US')}M records (${zones.toLocaleString('en-US')} zones × ${PER_ZONE})`;
    process.stderr.write(`  filled ${label} through the services in ${ms(big.fillMs)}\n`);
    // Per million records: what the records add to a start (the 1k store's start is the process, the schema, the HTTP side).
    const perMillion = ((big.loadedMs - small.loadedMs) / (big.records - small.records)) * 1e6;
    rows.push(
      { name: `Start-up to first DNS answer, ${label}`, value: ms(big.firstAnswerMs), reference: `1k records: ${ms(small.firstAnswerMs)}`, ratio: ratio(big.firstAnswerMs, small.firstAnswerMs) },
      { name: `Start-up to fully loaded (/readyz ready), ${label}`, value: `${ms(big.loadedMs)} (${(perMillion / 1000).toFixed(2)} s per million records beyond a 1k start)`, reference: `1 s per million (aim); 1k records: ${ms(small.loadedMs)}`, ratio: `${Math.round(perMillion / 10)}%` },
      { name: `DNS q/s over every zone, ${label}`, value: `${Math.round(big.qps).toLocaleString('en-US')} q/s`, reference: `1k records: ${Math.round(small.qps).toLocaleString('en-US')} q/s (aim ≥ 95%)`, ratio: ratio(big.qps, small.qps) },
      { name: `One record added through the API until DNS answers it, ${label}`, value: ms(big.changeMs), reference: `1k records: ${ms(small.changeMs)}`, ratio: ratio(big.changeMs, small.changeMs) },
    );
  }
  return rows;
}
