/**
 * zonedeck beside Knot DNS and NSD, the authoritative servers operators compare it with, on the
 * same generated zones and the same questions: `zones` zones of `perZone` A records each
 * (PEERS_SIZES, default 1,000 × 500 = 500k and 10,000 × 500 = 5M records), zonedeck's store
 * filled through its services, the others given the same records as zone files.
 *
 * Each server answers on one core (pinned to CPU 0, one worker); dnsperf asks from the other core
 * over 20,000 names spread over every zone, 15% of them nonexistent, in five alternating rounds
 * (the median round of each). Beside the rate: CPU time per answer (the figure that says most on a
 * two-core machine, where the load generator's core is the ceiling), memory once every zone answers
 * (proportional set size of the server's processes, so NSD's forked children are not counted twice),
 * bytes per record, and a restart until every zone answers (zonedeck from the snapshot its previous
 * start wrote; the others from their zone files); and zonedeck's start from the database alone.
 * Knot and NSD come from Debian's packages, installed when missing and run as root.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SNAPSHOT_FILE } from '../server/dns/index/index-snapshot';
import { startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { freePort } from '../server/testing/test-server';
import { cpuSeconds, dnsperf } from './dns';
import { fillZones } from './fill';
import { answers, until } from './startup';
import { fmtQps, ratio, type Row } from './table';

const SERVER_CPU = 0;
const ROUNDS = 5;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const QUESTIONS = 20_000;

interface Size {
  zones: number;
  perZone: number;
}

function sizes(): Size[] {
  return (process.env.PEERS_SIZES ?? '1000x500,10000x500').split(',').map((s) => {
    const [zones, perZone] = s.split('x').map(Number);
    if (!zones || !perZone) throw new Error(`PEERS_SIZES: "${s}" is not <zones>x<records per zone>`);
    return { zones, perZone };
  });
}

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Knot and NSD from Debian when missing (as root); the names of what is still missing. */
function ensurePeers(): string[] {
  const need = [
    ['knotd', 'knot'],
    ['nsd', 'nsd'],
    ['dnsperf', 'dnsperf'],
  ].filter(([cmd]) => !has(cmd!) && !fs.existsSync(`/usr/sbin/${cmd}`));
  if (need.length > 0 && process.getuid?.() === 0) {
    spawnSync('apt-get', ['install', '-y', '-q', ...need.map(([, pkg]) => pkg!)], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  return need.filter(([cmd]) => !has(cmd!) && !fs.existsSync(`/usr/sbin/${cmd}`)).map(([, pkg]) => pkg!);
}

const zoneName = (z: number) => `zone${z}.test`;

/** The records fillZones gives zonedeck, as zone files for the others: SOA, the two NS, `perZone` A. */
function writeZoneFiles(dir: string, size: Size): void {
  fs.mkdirSync(dir, { recursive: true });
  for (let z = 0; z < size.zones; z++) {
    const lines = [
      `$ORIGIN ${zoneName(z)}.`,
      '@ 3600 IN SOA ns1.zonedeck.test. hostmaster.zonedeck.test. 2026112900 10800 3600 1209600 3600',
      '@ 3600 IN NS ns1.zonedeck.test.',
      '@ 3600 IN NS ns2.zonedeck.test.',
    ];
    for (let i = 0; i < size.perZone; i++) lines.push(`host${i} 3600 IN A 10.${z & 255}.${(i >> 8) & 255}.${i & 255}`);
    fs.writeFileSync(path.join(dir, `${zoneName(z)}.zone`), `${lines.join('\n')}\n`);
  }
}

/** dnsperf's questions: names of every zone, 15% of them nonexistent. */
function questionFile(dir: string, size: Size): string {
  const lines: string[] = [];
  for (let k = 0; k < QUESTIONS; k++) {
    const zone = zoneName((k * 104_729) % size.zones);
    lines.push(k % 20 < 3 ? `nx${k}.${zone} A` : `host${(k * 7919) % size.perZone}.${zone} A`);
  }
  const file = path.join(dir, 'questions.txt');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** One name of every zone: all of them answered means every zone is loaded. */
function everyZoneFile(dir: string, size: Size): string {
  const file = path.join(dir, 'every-zone.txt');
  fs.writeFileSync(file, Array.from({ length: size.zones }, (_, z) => `host0.${zoneName(z)} A\n`).join(''));
  return file;
}

/** Whether every zone answers: one question to each, all NOERROR with an answer (dnsperf counts the codes). */
async function everyZoneAnswers(port: number, file: string, size: Size): Promise<boolean> {
  // The last zone first: cheap while it does not answer yet.
  if (!(await answers(port, `host0.${zoneName(size.zones - 1)}`))) return false;
  // At most 20 questions outstanding: this asks whether every zone answers, not how big a burst a
  // socket's receive buffer holds (200 at once lost ~0.5% on one core, and a pass with one lost
  // answer was asked again two seconds later, adding tens of seconds to a restart's figure).
  const { stdout } = spawnSync('dnsperf', ['-s', '127.0.0.1', '-p', String(port), '-d', file, '-n', '1', '-c', '4', '-q', '20', '-t', '2'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return Number(/NOERROR (\d+)/.exec(stdout)?.[1] ?? 0) === size.zones;
}

/** A process and all its descendants (NSD answers from forked children). */
function processTree(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  const list = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  return [pid, ...(list ? list.split(/\s+/).map(Number).flatMap(processTree) : [])];
}

/** The proportional set size of a process and its children, in bytes. */
function pssBytes(pid: number): number {
  return processTree(pid).reduce((total, p) => total + Number(/^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024, 0);
}

/** CPU seconds of a process and its children. */
function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((total, p) => total + cpuSeconds(p), 0);
}

interface Peer {
  name: string;
  port: number;
  /** The process whose tree answers (the taskset's child for Knot and NSD). */
  pid: number;
  /** Start until every zone answered, in ms. */
  restartMs: number;
  memory: number;
  stop: () => Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Starts a peer's daemon pinned to the server's core, and times it until every zone answers. */
async function startDaemon(name: string, argv: string[], port: number, everyZone: string, size: Size): Promise<Peer> {
  const t = performance.now();
  const child = spawn('taskset', ['-c', String(SERVER_CPU), ...argv], { stdio: 'ignore' });
  await until(() => everyZoneAnswers(port, everyZone, size), 50);
  const restartMs = performance.now() - t;
  await new Promise((r) => setTimeout(r, 2000));
  return { name, port, pid: child.pid!, restartMs, memory: pssBytes(child.pid!), stop: () => stopChild(child) };
}

async function startKnot(dir: string, size: Size, everyZone: string): Promise<Peer> {
  const port = await freePort();
  const conf = path.join(dir, 'knot.conf');
  const zones = Array.from({ length: size.zones }, (_, z) => `  - domain: ${zoneName(z)}\n`).join('');
  fs.writeFileSync(
    conf,
    `server:\n    rundir: "${dir}"\n    listen: 127.0.0.1@${port}\n    udp-workers: 1\n    tcp-workers: 1\n    background-workers: 1\n` +
      `database:\n    storage: "${dir}"\ntemplate:\n  - id: default\n    storage: "${dir}/zones"\n    file: "%s.zone"\n    zonefile-sync: -1\n    journal-content: none\n    semantic-checks: off\nzone:\n${zones}`,
  );
  const knotd = fs.existsSync('/usr/sbin/knotd') ? '/usr/sbin/knotd' : 'knotd';
  return startDaemon('Knot DNS', [knotd, '-c', conf], port, everyZone, size);
}

async function startNsd(dir: string, size: Size, everyZone: string): Promise<Peer> {
  const port = await freePort();
  const conf = path.join(dir, 'nsd.conf');
  const zones = Array.from({ length: size.zones }, (_, z) => `zone:\n  name: ${zoneName(z)}\n  zonefile: ${zoneName(z)}.zone\n`).join('');
  fs.writeFileSync(
    conf,
    `server:\n  ip-address: 127.0.0.1@${port}\n  server-count: 1\n  username: ""\n  chroot: ""\n  zonesdir: "${dir}/zones"\n  database: ""\n` +
      `  pidfile: "${dir}/nsd.pid"\n  xfrdfile: "${dir}/xfrd.state"\n  zonelistfile: "${dir}/zone.list"\n  verbosity: 0\nremote-control:\n  control-enable: no\n${zones}`,
  );
  const nsd = fs.existsSync('/usr/sbin/nsd') ? '/usr/sbin/nsd' : 'nsd';
  return startDaemon('NSD', [nsd, '-d', '-c', conf], port, everyZone, size);
}

/** zonedeck's start from the database alone (no snapshot), then the measured restart from the snapshot it wrote. */
async function startZonedeck(dir: string, size: Size, everyZone: string): Promise<{ peer: Peer; fromStoreMs: number }> {
  const boot = async (): Promise<{ server: ServerProcess; ms: number }> => {
    const t = performance.now();
    const server = await startServer({ DNS_PORT: '0', DNS_THREADS: '1', LOG_LEVEL: 'warn' }, dir, { cpu: SERVER_CPU });
    await until(() => everyZoneAnswers(server.dnsPort!, everyZone, size), 50);
    return { server, ms: performance.now() - t };
  };
  fs.rmSync(path.join(dir, SNAPSHOT_FILE), { force: true });
  const cold = await boot();
  // The snapshot is renamed into place once written, after the load.
  await until(async () => fs.readdirSync(dir).includes(SNAPSHOT_FILE) && !fs.readdirSync(dir).some((f) => f.endsWith('.tmp')), 50);
  await cold.server.stop();
  const warm = await boot();
  await new Promise((r) => setTimeout(r, 2000));
  const pid = warm.server.child.pid!;
  return {
    peer: { name: 'zonedeck', port: warm.server.dnsPort!, pid, restartMs: warm.ms, memory: pssBytes(pid), stop: () => warm.server.stop() },
    fromStoreMs: cold.ms,
  };
}

interface Rate {
  qps: number;
  cpuUs: number;
}

/** Alternating rounds over every peer; each peer's median round, with its CPU time per answer. */
async function rates(peers: Peer[], questions: string, rounds = ROUNDS): Promise<Map<string, Rate>> {
  const runs = new Map<string, Rate[]>(peers.map((p) => [p.name, []]));
  for (const p of peers) await dnsperf(p.port, questions, 2);
  for (let round = 0; round < rounds; round++) {
    for (const p of peers) {
      const cpu = treeCpuSeconds(p.pid);
      const perf = await dnsperf(p.port, questions, SECONDS);
      runs.get(p.name)!.push({ qps: perf.qps, cpuUs: ((treeCpuSeconds(p.pid) - cpu) / perf.completed) * 1e6 });
    }
  }
  const median = (list: Rate[]) => [...list].sort((a, b) => a.qps - b.qps)[Math.floor(list.length / 2)]!;
  return new Map([...runs].map(([name, list]) => [name, median(list)]));
}

const mb = (n: number) => `${Math.round(n / 1e6)} MB`;

/**
 * zonedeck with 1, 2, … DNS_THREADS (up to the cores, at least 2), each start on the same store and
 * pinned to every core but the last, where dnsperf runs: q/s, CPU per answer and memory per thread
 * count, beside one thread. On two cores the server has one core for all its threads, so the rate
 * says what the threads cost, not what they bring: the CPU per answer is the figure to read.
 */
async function threadScaling(dir: string, size: Size, everyZone: string, questions: string, label: string): Promise<Row[]> {
  const cores = Number(spawnSync('nproc').stdout.toString().trim()) || 2;
  const serverCpus = cores > 2 ? `0-${cores - 2}` : '0';
  const counts = Array.from({ length: Math.max(2, cores) }, (_, i) => i + 1);
  const measured: { threads: number; rate: Rate; memory: number }[] = [];
  for (const threads of counts) {
    const server = await startServer({ DNS_PORT: '0', DNS_THREADS: String(threads), LOG_LEVEL: 'warn' }, dir, { cpu: serverCpus });
    try {
      await until(() => everyZoneAnswers(server.dnsPort!, everyZone, size), 50);
      const pid = server.child.pid!;
      const rate = (await rates([{ name: 'zonedeck', port: server.dnsPort!, pid, restartMs: 0, memory: 0, stop: async () => {} }], questions, 3)).get('zonedeck')!;
      measured.push({ threads, rate, memory: pssBytes(pid) });
    } finally {
      await server.stop();
    }
  }
  const one = measured[0]!;
  return measured.slice(1).map(({ threads, rate, memory }) => ({
    name: `Peers, ${label}: DNS_THREADS=${threads} on CPU ${serverCpus}, dnsperf on CPU ${cores - 1} (median of 3): q/s, CPU per answer, memory`,
    value: `${fmtQps(rate.qps)}, ${rate.cpuUs.toFixed(1)} µs, ${mb(memory)}`,
    reference: `DNS_THREADS=1: ${fmtQps(one.rate.qps)}, ${one.rate.cpuUs.toFixed(1)} µs, ${mb(one.memory)}`,
    ratio: ratio(rate.qps, one.rate.qps),
  }));
}
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function compare(size: Size): Promise<Row[]> {
  const records = size.zones * size.perZone;
  const label = `${size.zones.toLocaleString('en-US')} zones × ${size.perZone} (${(records / 1e6).toLocaleString('en-US')}M records)`;
  const dir = tempDataDir();
  const peers: Peer[] = [];
  try {
    process.stderr.write(`  peers ${label}: filling…\n`);
    await fillZones(dir, size.zones, size.perZone);
    writeZoneFiles(path.join(dir, 'zones'), size);
    const questions = questionFile(dir, size);
    const everyZone = everyZoneFile(dir, size);
    // An empty zonedeck first: what the process holds before any zone.
    const emptyDir = tempDataDir();
    const empty = await startServer({ DNS_PORT: '0', DNS_THREADS: '1', LOG_LEVEL: 'warn' }, emptyDir, { cpu: SERVER_CPU });
    await new Promise((r) => setTimeout(r, 2000));
    const emptyMemory = pssBytes(empty.child.pid!);
    await empty.stop();
    fs.rmSync(emptyDir, { recursive: true, force: true });

    const { peer: zonedeck, fromStoreMs } = await startZonedeck(dir, size, everyZone);
    peers.push(zonedeck);
    const knot = await startKnot(dir, size, everyZone);
    peers.push(knot);
    const nsd = await startNsd(dir, size, everyZone);
    peers.push(nsd);
    process.stderr.write(`  peers ${label}: measuring…\n`);
    const rate = await rates(peers, questions);
    for (const p of peers) await p.stop();
    peers.length = 0;
    const scaling = await threadScaling(dir, size, everyZone, questions, label);
    const z = rate.get('zonedeck')!;
    const k = rate.get('Knot DNS')!;
    const n = rate.get('NSD')!;
    const perRecord = (p: Peer) => `${Math.round(p.memory / records)} B`;
    return [
      { name: `Peers, ${label}: q/s on one core (median of ${ROUNDS})`, value: fmtQps(z.qps), reference: `Knot ${fmtQps(k.qps)}, NSD ${fmtQps(n.qps)}; aim 0.8 of Knot`, ratio: ratio(z.qps, k.qps) },
      { name: `Peers, ${label}: CPU per answer`, value: `${z.cpuUs.toFixed(1)} µs`, reference: `Knot ${k.cpuUs.toFixed(1)} µs, NSD ${n.cpuUs.toFixed(1)} µs`, ratio: ratio(k.cpuUs, z.cpuUs) },
      {
        name: `Peers, ${label}: memory once every zone answers`,
        value: mb(zonedeck.memory),
        reference: `Knot ${mb(knot.memory)}, NSD ${mb(nsd.memory)}; aim ≤ Knot`,
        ratio: ratio(zonedeck.memory, knot.memory),
      },
      {
        name: `Peers, ${label}: bytes per record (memory ÷ records)`,
        value: perRecord(zonedeck),
        reference: `Knot ${perRecord(knot)}, NSD ${perRecord(nsd)}`,
        ratio: ratio(zonedeck.memory, knot.memory),
      },
      { name: `Peers, ${label}: an empty zonedeck's memory`, value: mb(emptyMemory), reference: 'aim well under 100 MB', ratio: ratio(emptyMemory, 100e6) },
      {
        name: `Peers, ${label}: restart until every zone answers`,
        value: s(zonedeck.restartMs),
        reference: `Knot ${s(knot.restartMs)}, NSD ${s(nsd.restartMs)}; aim ≤ Knot`,
        ratio: ratio(zonedeck.restartMs, knot.restartMs),
      },
      {
        name: `Peers, ${label}: zonedeck's start from the database (no snapshot)`,
        value: s(fromStoreMs),
        reference: `aim ${s(records / 1000)} (1 s per million records)`,
        ratio: ratio(fromStoreMs, records / 1000),
      },
      ...scaling,
    ];
  } finally {
    for (const p of peers) await p.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPeers(): Promise<Row[]> {
  const missing = ensurePeers();
  if (missing.length > 0 || !has('taskset')) {
    return [{ name: `Peers: not run, missing ${[...missing, ...(has('taskset') ? [] : ['util-linux'])].join(', ')} (apt-get install as root)`, value: '—', reference: '—', ratio: '—' }];
  }
  const rows: Row[] = [];
  for (const size of sizes()) rows.push(...(await compare(size)));
  return rows;
}
