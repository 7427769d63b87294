/**
 * DNS figures: queries/s and latency with dnsperf over a mix of
 * existing names, NXDOMAIN, AAAA, MX and TXT on a 1,000-record zone, each server pinned
 * to CPU 0 and dnsperf to CPU 1, beside a bare Node UDP responder that returns a fixed
 * answer, in the same run. Also Knot DNS on the same zone, zonedeck on 100,000 records, and
 * DNSSEC: the 1k zone is signed, and the same query mix with the DO bit (signed answers,
 * signatures cached) is measured beside the unsigned mix, alternating rounds on the same server.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openSqliteStore } from '../server/store/sqlite/sqlite';
import { CLI_WRITE } from '../server/services/changes/change-sets';
import { createServices } from '../server/services';
import { startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const run = promisify(execFile);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const ZONE = 'bench.test';
const ROUNDS = 4;
const ROUND_SECONDS = Math.max(2, Math.round(DURATION / 2));
const SERVER_CPU = 0;
const CLIENT_CPU = 1;

interface Perf {
  qps: number;
  latencyMs: number;
  /** The longest any answer took: a pause of the server's thread shows here. */
  maxLatencyMs: number;
  lost: number;
  /** Answers received. */
  completed: number;
}

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Runs dnsperf against a port; the client is pinned to its own core. */
export async function dnsperf(port: number, queries: string, seconds = DURATION, opts: { dnssecOk?: boolean; once?: boolean } = {}): Promise<Perf> {
  const args = ['-c', String(CLIENT_CPU), 'dnsperf', '-s', '127.0.0.1', '-p', String(port), '-d', queries, '-e', '-c', '4', '-q', '200', '-t', '2'];
  // -n 1: every line of the file once (each name new to the server), else loop for `seconds`.
  args.push(...(opts.once ? ['-n', '1'] : ['-l', String(seconds)]));
  // -D: the DNSSEC OK bit, so a signed zone answers with RRSIGs and NSECs.
  if (opts.dnssecOk) args.push('-D');
  const { stdout } = await run('taskset', args, { maxBuffer: 1 << 24 });
  const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? NaN);
  return {
    qps: num(/Queries per second:\s+([\d.]+)/),
    latencyMs: num(/Average Latency \(s\):\s+([\d.]+)/) * 1000,
    maxLatencyMs: num(/Average Latency \(s\):.*max ([\d.]+)\)/) * 1000,
    lost: num(/Queries lost:\s+(\d+)/),
    completed: num(/Queries completed:\s+(\d+)/),
  };
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/** CPU seconds a process has used so far, all its threads (user and system). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLOCK_TICKS;
}

/** Warm-up (JIT, caches), then the measured run. */
async function measure(port: number, queries: string, dnssecOk = false): Promise<Perf> {
  await dnsperf(port, queries, 2, { dnssecOk });
  return dnsperf(port, queries, DURATION, { dnssecOk });
}

const bestOf = (runs: Perf[]) => runs.reduce((a, b) => (b.qps > a.qps ? b : a));

const fmt = (p: Perf) => `${Math.round(p.qps).toLocaleString('en-US')} q/s, ${p.latencyMs.toFixed(2)} ms avg${p.lost ? `, ${p.lost} lost` : ''}`;

/** The zone's records: A for every host, AAAA for a fifth, TXT and MX for a tenth each. */
function* zoneRecords(count: number): Generator<{ name: string; record_type: string; content: string }> {
  let n = 0;
  for (let i = 0; n < count; i++) {
    yield { name: `host${i}`, record_type: 'A', content: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` };
    if (++n >= count) return;
    if (i % 5 === 0) {
      yield { name: `host${i}`, record_type: 'AAAA', content: `2001:db8::${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}` };
      if (++n >= count) return;
    }
    if (i % 10 === 0) {
      yield { name: `host${i}`, record_type: 'TXT', content: `v=spf1 ip4:10.0.0.${i & 255} -all` };
      yield { name: `host${i}`, record_type: 'MX', content: `10 mail${i}.${ZONE}` };
      n += 2;
      if (n >= count) return;
    }
  }
}

/** A dnsperf input: 50% existing A, 15% NXDOMAIN, 15% AAAA, 10% MX, 10% TXT. */
export function queryFile(dir: string, hosts: number): string {
  const lines: string[] = [];
  for (let k = 0; k < 20_000; k++) {
    const r = k % 20;
    const i = (k * 7919) % hosts;
    if (r < 10) lines.push(`host${i}.${ZONE} A`);
    else if (r < 13) lines.push(`nx${k}.${ZONE} A`);
    else if (r < 16) lines.push(`host${i - (i % 5)}.${ZONE} AAAA`);
    else if (r < 18) lines.push(`host${i - (i % 10)}.${ZONE} MX`);
    else lines.push(`host${i - (i % 10)}.${ZONE} TXT`);
  }
  const file = path.join(dir, 'queries.txt');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** 100,000 distinct nonexistent names: none repeats, so neither answer nor signature can come from a cache. */
function uniqueNxFile(dir: string): string {
  const file = path.join(dir, 'unique-nx.txt');
  const lines: string[] = [];
  for (let k = 0; k < 100_000; k++) lines.push(`fresh${k}.${ZONE} A`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Bench setup: a user and the zone, its records one change set (a zone file import), as any writer's. */
export async function fillStore(dataDir: string, count: number, dnssec = false): Promise<number> {
  const services = createServices(await openSqliteStore(path.join(dataDir, 'zonedeck.db')), { nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], nsTtl: 3600 });
  const { user } = await services.accounts.addUser('bench');
  const zone = await services.zones.create(user.id, { name: ZONE, dnssec_enabled: dnssec });
  let hosts = 0;
  const lines: string[] = [];
  for (const r of zoneRecords(count)) {
    lines.push(`${r.name} 3600 IN ${r.record_type} ${r.record_type === 'TXT' ? `"${r.content}"` : r.record_type === 'MX' ? `${r.content}.` : r.content}`);
    if (r.record_type === 'A') hosts++;
  }
  await services.zoneFiles.importInto(zone, (tx) => services.zones.owned(user.id, ZONE, tx), `${lines.join('\n')}\n`, 'merge', { ...CLI_WRITE, comment: 'bench' });
  await services.close();
  return hosts;
}

/** The bare reference: a Node UDP socket answering every query with one fixed response. */
const BARE_RESPONDER = `
const dgram = require('node:dgram');
const fixed = Buffer.from('0000850000010001000000000462656e6368047465737400000100010c000100010000012c00040a000001', 'hex');
const s = dgram.createSocket('udp4');
s.on('message', (m, r) => { const out = Buffer.allocUnsafe(fixed.length); fixed.copy(out); out[0] = m[0]; out[1] = m[1]; s.send(out, r.port, r.address); });
s.bind(0, '127.0.0.1', () => console.log(JSON.stringify({ port: s.address().port })));
`;

function startPinned(argv: string[], ready: (line: string) => number | null): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn('taskset', ['-c', String(SERVER_CPU), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        const port = ready(line);
        if (port !== null) resolve({ child, port });
      }
    });
    child.once('exit', (code) => reject(new Error(`${argv[0]} exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Knot DNS serving the zone as zonedeck transfers it, one worker on the same core. */
async function knotRate(dir: string, zonedeckPort: number, queries: string): Promise<Perf | null> {
  const knotd = fs.existsSync('/usr/sbin/knotd') ? '/usr/sbin/knotd' : has('knotd') ? 'knotd' : null;
  if (!knotd) return null;
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(zonedeckPort), ZONE, 'AXFR', '+noall', '+answer'], { maxBuffer: 1 << 26 });
  const lines = stdout.trim().split('\n');
  fs.writeFileSync(path.join(dir, `${ZONE}.zone`), `${lines.slice(0, -1).join('\n')}\n`);
  const probe = await import('../server/testing/test-server');
  const port = await probe.freePort();
  fs.writeFileSync(
    path.join(dir, 'knot.conf'),
    `server:\n    rundir: "${dir}"\n    listen: 127.0.0.1@${port}\n    udp-workers: 1\n    tcp-workers: 1\n    background-workers: 1\n` +
      `database:\n    storage: "${dir}"\ntemplate:\n  - id: default\n    storage: "${dir}"\n    zonefile-sync: -1\n    journal-content: none\nzone:\n  - domain: ${ZONE}\n`,
  );
  const child = spawn('taskset', ['-c', String(SERVER_CPU), knotd, '-c', path.join(dir, 'knot.conf')], { stdio: 'ignore' });
  try {
    const up = await probe.eventually(
      async () => {
        const r = spawnSync('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', `host1.${ZONE}`, 'A']);
        return r.stdout.toString().trim() !== '';
      },
      100,
      100,
    );
    if (!up) return null;
    return await measure(port, queries);
  } finally {
    await stop(child);
  }
}

/**
 * DNS_THREADS=2 against 1 on the same store, alternating rounds, neither server pinned (dnsperf
 * keeps its own core, so on two cores the load generator is the ceiling: `bench -- peers` gives
 * the CPU per answer), with the number of threads the server says answer.
 */
async function threadsRow(dir: string, queries: string): Promise<Row> {
  const two = await startServer({ DNS_PORT: '0', DNS_THREADS: '2' }, dir);
  const one = await startServer({ DNS_PORT: '0', DNS_THREADS: '1' }, dir);
  try {
    const runs = { one: [] as Perf[], two: [] as Perf[] };
    await dnsperf(one.dnsPort!, queries, 2);
    await dnsperf(two.dnsPort!, queries, 2);
    for (let round = 0; round < ROUNDS; round++) {
      runs.one.push(await dnsperf(one.dnsPort!, queries, ROUND_SECONDS));
      runs.two.push(await dnsperf(two.dnsPort!, queries, ROUND_SECONDS));
    }
    // What the server says of its threads (its listening line).
    const said = two.lines.map((l) => (l.includes('"dns_threads"') ? (JSON.parse(l) as { dns_threads: number }).dns_threads : undefined)).find((n) => n !== undefined);
    return {
      name: `DNS queries/s with DNS_THREADS=2 (the server: ${said ?? '?'} UDP threads, Node ${process.versions.node}; dnsperf on one of ${os.availableParallelism()} cores), 1k-record zone, best of ${ROUNDS}`,
      value: fmt(bestOf(runs.two)),
      reference: `DNS_THREADS=1: ${fmt(bestOf(runs.one))}`,
      ratio: ratio(bestOf(runs.two).qps, bestOf(runs.one).qps),
    };
  } finally {
    await one.stop();
    await two.stop();
  }
}

async function zonedeckRate(records: number, label: string, dnssec = false): Promise<{ perf: Perf; server: ServerProcess; dir: string; hosts: number; loadMs: number }> {
  const dir = tempDataDir();
  const hosts = await fillStore(dir, records, dnssec);
  const t0 = performance.now();
  const server = await startServer({ DNS_PORT: '0', LOG_LEVEL: 'warn' }, dir, { cpu: SERVER_CPU }).catch(async () =>
    // LOG_LEVEL=warn hides the listening line on some setups; fall back to info.
    startServer({ DNS_PORT: '0' }, dir, { cpu: SERVER_CPU }),
  );
  const loadMs = performance.now() - t0;
  process.stderr.write(`  zonedeck ${label}: started in ${Math.round(loadMs)} ms\n`);
  const perf = await measure(server.dnsPort!, queryFile(dir, hosts));
  return { perf, server, dir, hosts, loadMs };
}

export async function benchDns(): Promise<Row[]> {
  if (!has('dnsperf') || !has('taskset')) {
    return [{ name: 'DNS: dnsperf or taskset not installed (apt-get install dnsperf util-linux)', value: '—', reference: '—', ratio: '—' }];
  }
  const rows: Row[] = [];
  const bare = await startPinned([process.execPath, '-e', BARE_RESPONDER], (line) => {
    try {
      return JSON.parse(line).port as number;
    } catch {
      return null;
    }
  });
  try {
    // Signed: unsigned queries get the same answers as from an unsigned zone; DO queries get signatures.
    const small = await zonedeckRate(1000, '1k records', true);
    const queries1k = queryFile(small.dir, small.hosts);
    await measure(small.server.dnsPort!, queries1k, true);
    const signedRuns: Perf[] = [];
    // Alternate reference and zonedeck in short rounds and keep each one's best round: on a
    // shared machine, the best round is the one least disturbed by other work, and both
    // get the same number of tries under the same conditions.
    const refRuns: Perf[] = [];
    const ourRuns: Perf[] = [small.perf];
    for (let round = 0; round < ROUNDS; round++) {
      refRuns.push(await dnsperf(bare.port, queries1k, ROUND_SECONDS));
      ourRuns.push(await dnsperf(small.server.dnsPort!, queries1k, ROUND_SECONDS));
      signedRuns.push(await dnsperf(small.server.dnsPort!, queries1k, ROUND_SECONDS, { dnssecOk: true }));
    }
    const ref = bestOf(refRuns);
    const best = bestOf(ourRuns);
    rows.push({ name: 'DNS queries/s, 1k-record zone (dnsperf mix, 1 core)', value: fmt(best), reference: `bare UDP responder: ${fmt(ref)}`, ratio: ratio(best.qps, ref.qps) });
    const signed = bestOf(signedRuns);
    rows.push({
      name: 'DNSSEC: signed answers/s (DO bit, dnsperf -D), signatures cached',
      value: fmt(signed),
      reference: `unsigned answers, same server: ${fmt(best)}`,
      ratio: ratio(signed.qps, best.qps),
    });
    // The worst case of online signing: every name new, so every NXDOMAIN needs a fresh NSEC signature.
    const fresh = await dnsperf(small.server.dnsPort!, uniqueNxFile(small.dir), 0, { dnssecOk: true, once: true });
    rows.push({ name: 'DNSSEC: new nonexistent names/s (one fresh signature each)', value: fmt(fresh), reference: `signed, cached: ${fmt(signed)}`, ratio: ratio(fresh.qps, signed.qps) });
    const knot = await knotRate(small.dir, small.server.dnsPort!, queries1k);
    await small.server.stop();
    if (knot) rows.push({ name: 'Knot DNS on the same zone (1 worker, 1 core)', value: fmt(best), reference: `knotd: ${fmt(knot)}`, ratio: ratio(best.qps, knot.qps) });
    rows.push(await threadsRow(small.dir, queries1k));
    const large = await zonedeckRate(100_000, '100k records');
    const largeBest = bestOf([large.perf, await measure(large.server.dnsPort!, queryFile(large.dir, large.hosts))]);
    await large.server.stop();
    rows.push({ name: 'DNS queries/s, 100k-record zone', value: fmt(largeBest), reference: `1k-record zone: ${fmt(best)}`, ratio: ratio(largeBest.qps, best.qps) });
    rows.push({ name: 'DNS start-up with a 100k-record zone', value: `${Math.round(large.loadMs)} ms`, reference: `1k: ${Math.round(small.loadMs)} ms`, ratio: '—' });
    for (const d of [small.dir, large.dir]) fs.rmSync(d, { recursive: true, force: true });
  } finally {
    await stop(bare.child);
  }
  return rows;
}
