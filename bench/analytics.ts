/**
 * Per-zone query analytics, each figure beside its reference in
 * the same run:
 * - DNS q/s with analytics on (the default, STATS_DAYS=90) beside the same build with STATS_DAYS=off:
 *   dnsperf's mix on the 1k zone, alternating rounds, best of each (aim ≥ 95%);
 * - the same under a random-subdomain flood (every query a new NXDOMAIN name: each one replaces an
 *   entry of the zone's top-k sketches, the counting's worst case);
 * - the counters' memory after 1,000,000 distinct names in one period, beside a plain Map that
 *   counts every name (what an unbounded counter would hold);
 * - the cost of counting one answer, in process, for repeated names and for a flood;
 * - the main thread's CPU to store one period's counts of 10,000 queried zones (SQLite), beside
 *   the period (STATS_FLUSH_MS, 5 s): the share of a core that analytics costs a busy node;
 * - DNS q/s with analytics on and off when the questions spread over 10,000 zones (20,000 names):
 *   every period hands on and stores 10,000 zones' counts, on the core the DNS thread answers on.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import packet from 'dns-packet';
import { startServer, tempDataDir } from '../server/testing/server-process';
import { fillZones } from './fill';
import { QueryStats } from '../server/dns/analytics/query-stats';
import { questionKey } from '../server/dns/wire/answer-cache';
import type { Zone } from '../server/dns/index/zone';
import { STAT_FIELDS } from '../server/core/query-stats-fields';
import { createStatsRecorder } from '../server/services/analytics/stats-recorder';
import { openSqliteStore } from '../server/store/sqlite/sqlite';
import { cpuSeconds, dnsperf, fillStore, queryFile, ZONE } from './dns';
import { fmtQps, ratio, type Row } from './table';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const kb = (n: number) => `${Math.round(n / 1024).toLocaleString('en-US')} kB`;

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function floodFile(dir: string): string {
  const lines: string[] = [];
  for (let k = 0; k < 200_000; k++) lines.push(`${((k * 2654435761) >>> 0).toString(36)}${k}.${ZONE} A`);
  const file = path.join(dir, 'flood.txt');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * Both servers in alternating rounds (the order flipped each round, so a drift of the machine's
 * speed falls on both alike): the best q/s of each, and the median of the rounds' on/off ratios;
 * with the servers' pids, also each one's CPU time per answer over all its rounds (all threads).
 */
async function onOff(
  on: number,
  off: number,
  queries: string,
  secs = Math.max(2, Math.round(SECONDS / 2)),
  pids?: { on: number; off: number },
): Promise<{ on: number; off: number; median: number; ratios: number[]; cpuUs?: { on: number; off: number } }> {
  await dnsperf(on, queries, 2);
  await dnsperf(off, queries, 2);
  let bestOn = 0;
  let bestOff = 0;
  const ratios: number[] = [];
  const cpu = { on: 0, off: 0 };
  const answers = { on: 0, off: 0 };
  const round = async (which: 'on' | 'off') => {
    const before = pids ? cpuSeconds(pids[which]) : 0;
    const p = await dnsperf(which === 'on' ? on : off, queries, secs);
    if (pids) cpu[which] += cpuSeconds(pids[which]) - before;
    answers[which] += p.completed;
    return p.qps;
  };
  for (let i = 0; i < ROUNDS; i++) {
    const first = i % 2 === 0 ? 'off' : 'on';
    const a = await round(first);
    const b = await round(first === 'off' ? 'on' : 'off');
    const [qOff, qOn] = first === 'off' ? [a, b] : [b, a];
    bestOff = Math.max(bestOff, qOff);
    bestOn = Math.max(bestOn, qOn);
    ratios.push(qOn / qOff);
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
  const cpuUs = pids ? { on: (cpu.on / answers.on) * 1e6, off: (cpu.off / answers.off) * 1e6 } : undefined;
  return { on: bestOn, off: bestOff, median, ratios, cpuUs };
}

const pct = (r: number) => `${Math.round(r * 100)}%`;

const query = (name: string) => Buffer.from(packet.encode({ type: 'query', id: 1, questions: [{ name, type: 'A', class: 'IN' }] }));
const header = (rcode: number) => Buffer.from([0, 1, 0x84, rcode, 0, 1, 0, rcode === 0 ? 1 : 0, 0, 0, 0, 0]);

/** The memory and per-answer cost of the counters, in this process. */
function inProcess(): Row[] {
  const zone = { id: 1, name: ZONE } as Zone;
  const nx = header(3);
  const ok = header(0);
  // 1,000,000 distinct names: one query whose first label is rewritten in place.
  const flood = query(`${'0'.repeat(14)}.${ZONE}`);
  const rewrite = (i: number) => {
    for (let k = 0, x = i; k < 14; k++, x = Math.floor(x / 16)) flood[13 + k] = '0123456789abcdef'.charCodeAt(x & 15);
  };
  gc();
  const before = process.memoryUsage().heapUsed;
  const stats = new QueryStats();
  let t = process.hrtime.bigint();
  for (let i = 0; i < 1_000_000; i++) {
    rewrite(i);
    stats.count(zone, flood, nx, false);
  }
  const floodNs = Number(process.hrtime.bigint() - t) / 1_000_000;
  gc();
  const held = process.memoryUsage().heapUsed - before;
  stats.take();

  gc();
  const mapBefore = process.memoryUsage().heapUsed;
  const naive = new Map<string, number>();
  for (let i = 0; i < 1_000_000; i++) {
    rewrite(i);
    const name = flood.toString('latin1', 13, 27);
    naive.set(name, (naive.get(name) ?? 0) + 1);
  }
  gc();
  const mapHeld = process.memoryUsage().heapUsed - mapBefore;

  // Repeated names: 50 (a zone whose names all fit its sketch) and 1,000 asked evenly (most miss it).
  const perAnswer = (n: number) => {
    const names = Array.from({ length: n }, (_, i) => query(`host${i}.${ZONE}`));
    for (let i = 0; i < 200_000; i++) stats.count(zone, names[i % n]!, ok, false);
    const start = process.hrtime.bigint();
    for (let i = 0; i < 2_000_000; i++) stats.count(zone, names[i % n]!, ok, false);
    stats.take();
    return Number(process.hrtime.bigint() - start) / 2_000_000;
  };
  const few = perAnswer(50);
  const many = perAnswer(1000);
  // Answers from the answer cache (most answers): counted on their entries, tallied at the flush.
  const hitNs = (() => {
    const entries = Array.from({ length: 1000 }, (_, i) => {
      const q = query(`host${i}.${ZONE}`);
      return { q, e: { key: questionKey(q, false)!.key, bytes: ok, zone, zoneGen: 0, setGen: 0, until: 0, hits: 0, period: -1, rrlClass: 0, rrlName: 0 } };
    });
    for (let i = 0; i < 200_000; i++) stats.countHit(entries[i % 1000]!.e, entries[i % 1000]!.q, ok, false);
    stats.take();
    const start = process.hrtime.bigint();
    for (let i = 0; i < 2_000_000; i++) {
      const x = entries[i % 1000]!;
      stats.countHit(x.e, x.q, ok, false);
      if (i % 100_000 === 99_999) stats.take(); // a flush every 100,000 answers (5 s at 20,000 q/s)
    }
    return Number(process.hrtime.bigint() - start) / 2_000_000;
  })();
  return [
    {
      name: 'Analytics: counters memory after 1,000,000 distinct names (one zone, one period)',
      value: kb(Math.max(0, held)),
      reference: `${mb(mapHeld)} for a Map counting every name (${naive.size.toLocaleString('en-US')} entries)`,
      ratio: ratio(Math.max(0, held), mapHeld),
    },
    {
      name: 'Analytics: CPU to count one answer (in process): from the cache (1,000 names, flushes included); not cached: 50 names / 1,000 names / random flood',
      value: `${hitNs.toFixed(0)} ns; ${few.toFixed(0)} / ${many.toFixed(0)} / ${floodNs.toFixed(0)} ns`,
      reference: '—',
      ratio: '—',
    },
  ];
}

/** CPU of storing one period's batch of 10,000 zones (2,000 with two top names each), best of 5, after a first one. */
async function storeCost(): Promise<Row> {
  const dir = tempDataDir();
  const store = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  const recorder = createStatsRecorder(store, { node: 'bench', days: 90, metricsPerZone: false, onError: (err) => console.error(err) });
  const minute = Math.floor(Date.now() / 60_000) * 60;
  let best = Infinity;
  try {
    for (let round = 0; round < 6; round++) {
      const zones = Array.from({ length: 10_000 }, (_, i) => ({
        id: i + 1,
        name: `zone${i}.test`,
        counts: STAT_FIELDS.map((_, j) => (i + j) % 7),
        names:
          i < 2000
            ? ([
                [`host${i}.zone${i}.test`, 3],
                [`www.zone${i}.test`, 1],
              ] as Array<[string, number]>)
            : [],
        nxdomain: [] as Array<[string, number]>,
      }));
      const cpu = process.cpuUsage();
      recorder.record({ minute, zones, unattributed: STAT_FIELDS.map(() => 0) });
      await recorder.flushed();
      const used = process.cpuUsage(cpu);
      if (round > 0) best = Math.min(best, (used.user + used.system) / 1000);
    }
  } finally {
    await recorder.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return {
    name: 'Analytics: main-thread CPU to store one period of 10,000 queried zones (SQLite; 24,000 upserts), best of 5',
    value: `${Math.round(best)} ms`,
    reference: 'the period, STATS_FLUSH_MS: 5,000 ms',
    ratio: ratio(best, 5000),
  };
}

export async function benchAnalytics(): Promise<Row[]> {
  const rows: Row[] = inProcess();
  rows.push(await storeCost());
  const dir = tempDataDir();
  const hosts = await fillStore(dir, 1000);
  const mixQueries = queryFile(dir, hosts);
  const flood = floodFile(dir);
  // Both servers on CPU 0, measured one at a time; dnsperf on CPU 1.
  const on = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn' }, dir, { cpu: 0 });
  const off = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn', STATS_DAYS: 'off' }, dir, { cpu: 0 });
  try {
    const mix = await onOff(on.dnsPort!, off.dnsPort!, mixQueries);
    rows.unshift({
      name: `Analytics: DNS q/s with per-zone analytics on (dnsperf mix, 1k zone), best of ${ROUNDS} paired rounds`,
      value: fmtQps(mix.on),
      reference: `STATS_DAYS=off: ${fmtQps(mix.off)}; paired rounds ${mix.ratios.map(pct).join(' ')}`,
      ratio: `${pct(mix.median)} (median of rounds)`,
    });
    const cpuRow = rows.find((r) => r.name.startsWith('Analytics: CPU'))!;
    cpuRow.reference = `one whole answer at ${fmtQps(mix.off)} on one core: ${Math.round(1e9 / mix.off).toLocaleString('en-US')} ns`;
    const fl = await onOff(on.dnsPort!, off.dnsPort!, flood);
    rows.splice(1, 0, {
      name: `Analytics: DNS q/s under a random-subdomain flood (every name new, NXDOMAIN), best of ${ROUNDS}`,
      value: fmtQps(fl.on),
      reference: `STATS_DAYS=off: ${fmtQps(fl.off)}; paired rounds ${fl.ratios.map(pct).join(' ')}`,
      ratio: `${pct(fl.median)} (median of rounds)`,
    });
  } finally {
    await on.stop();
    await off.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  rows.splice(2, 0, ...(await manyZones()));
  return rows;
}

/**
 * Analytics on against off when the questions spread over 10,000 zones (2 names each). Past
 * LIVE_WORK items a period, the counts go on once a minute (dns/query-stats.ts), so the rounds are
 * 30 s: every other one holds a minute's end on each server. Beside q/s (noisy on a shared
 * machine), each server's CPU time per answer over all its rounds, every thread counted.
 */
async function manyZones(): Promise<Row[]> {
  const ZONES = 10_000;
  const SECS = 30;
  const dir = tempDataDir();
  await fillZones(dir, ZONES, 2);
  const queries = path.join(dir, 'many-zones.txt');
  const lines: string[] = [];
  for (let k = 0; k < ZONES * 2; k++) lines.push(`host${k & 1}.zone${(k * 7919) % ZONES}.test A`);
  fs.writeFileSync(queries, `${lines.join('\n')}\n`);
  const on = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn' }, dir, { cpu: 0 });
  const off = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn', STATS_DAYS: 'off' }, dir, { cpu: 0 });
  try {
    const r = await onOff(on.dnsPort!, off.dnsPort!, queries, SECS, { on: on.child.pid!, off: off.child.pid! });
    const { on: usOn, off: usOff } = r.cpuUs!;
    return [
      {
        name: `Analytics: DNS q/s with per-zone analytics on, questions over 10,000 zones (20,000 names), best of ${ROUNDS} paired rounds of ${SECS} s`,
        value: fmtQps(r.on),
        reference: `STATS_DAYS=off: ${fmtQps(r.off)}; paired rounds ${r.ratios.map(pct).join(' ')}; aim ≥ 95%`,
        ratio: `${pct(r.median)} (median of rounds)`,
      },
      {
        name: `Analytics: server CPU per answer, questions over 10,000 zones, over all ${ROUNDS} rounds (every thread: answering, handing on, storing)`,
        value: `${usOn.toFixed(1)} µs`,
        reference: `STATS_DAYS=off: ${usOff.toFixed(1)} µs (aim ≤ 105%)`,
        ratio: pct(usOn / usOff),
      },
    ];
  } finally {
    await on.stop();
    await off.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
