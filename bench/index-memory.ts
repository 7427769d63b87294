/**
 * What the DNS thread's zone index costs in memory per record, how fast it is built, and
 * what a one-record change costs as the index grows — for 1,000 zones × 500 A records (500,000)
 * and 10,000 × 500 (5,000,000), each record at its own name. Each size is measured in a child
 * process with --expose-gc: heap plus the arenas' buffers (off the heap) after a full collection,
 * the rows freed, and the process's resident set growth; against the issue's aims.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Row } from './table';

const PER_ZONE = 500;
/** One-record changes timed per size (each a replaceName of one name, as a change event does). */
const CHANGES = 4000;
const BATCHES = 40;

interface Measured {
  /** Heap and array buffers per record, in octets. */
  bytes: number;
  /** Resident set growth per record, in octets. */
  rss: number;
  /** Building the index from rows, in ms. */
  ms: number;
  /** The same in CPU time (all the process's threads: the garbage collector's helpers too). */
  cpuMs: number;
  /** Mean time for one one-record change, in µs. */
  changeUs: number;
  zones: number;
}

/** Runs in the child: builds the index of `zones` zones, prints what it measured. */
async function measure(zones: number): Promise<void> {
  const { Zone } = await import('../server/dns/index/zone');
  const { ZoneIndex } = await import('../server/dns/index/zone-index');
  const identity = { primary: 'ns1.zonedeck.test', hostmaster: 'hostmaster.zonedeck.test' };
  const gc = (globalThis as { gc?: () => void }).gc!;
  const used = () => {
    const m = process.memoryUsage();
    return { mem: m.heapUsed + m.arrayBuffers, rss: m.rss };
  };
  const index = new ZoneIndex();
  const domainOf = (z: number) => ({
    id: z + 1,
    name: `zone${z}.example`,
    serial_number: 2026112600,
    refresh_interval: 10800,
    retry_interval: 3600,
    expire_interval: 1209600,
    minimum_ttl: 3600,
    dnssec_enabled: 0,
    dnssec_disabled_at: null,
    updated_at: new Date().toISOString(),
  });
  const row = (z: number, i: number, last = 0) => ({
    id: i,
    domain_id: z + 1,
    name: `host${i}`,
    record_type: 'A',
    content: `10.${z & 255}.${(i >> 8) & 255}.${last || i & 255}`,
    ttl: 3600,
    disabled: 0,
  });
  gc();
  const before = used();
  let built = 0;
  let cpu = 0;
  for (let z = 0; z < zones; z++) {
    const rows = [];
    for (let i = 0; i < PER_ZONE; i++) rows.push(row(z, i));
    const t = performance.now();
    const c = process.cpuUsage();
    index.put(new Zone(domainOf(z) as never, rows as never, identity));
    const used = process.cpuUsage(c);
    built += performance.now() - t;
    cpu += (used.user + used.system) / 1000;
  }
  gc();
  const after = used();
  const records = zones * PER_ZONE;
  // A one-record change in the middle zone, as zone-sync applies a change event: the name's rows again.
  const zone = index.get(`zone${zones >> 1}.example`)!;
  const change = (k: number) => zone.replaceName('host7', [row(zones >> 1, 7, 1 + (k % 250)) as never]);
  // A first run warms the code up (a 1k index has built little); then batches are timed, and the
  // median batch taken (this 2-core machine runs other work beside; compactions fall within batches).
  for (let k = 0; k < CHANGES; k++) change(k);
  const batches: number[] = [];
  for (let b = 0, k = 0; b < BATCHES; b++) {
    const t = performance.now();
    for (let i = 0; i < CHANGES / BATCHES; i++) change(k++);
    batches.push(((performance.now() - t) / (CHANGES / BATCHES)) * 1000);
  }
  const changeUs = batches.sort((a, b) => a - b)[BATCHES >> 1]!;
  const out: Measured = { bytes: (after.mem - before.mem) / records, rss: (after.rss - before.rss) / records, ms: built, cpuMs: cpu, changeUs, zones: index.size };
  process.stdout.write(JSON.stringify(out));
}

function child(zones: number): Measured {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', String(zones)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as Measured;
}

const B = (n: number) => `${Math.round(n)} B`;
const pct = (v: number, ref: number) => `${Math.round((v / ref) * 100)}%`;

export async function benchIndexMemory(): Promise<Row[]> {
  const small = child(2);
  const half = child(1000);
  const five = child(10_000);
  const perMillion = (m: Measured) => (m.ms / (m.zones * PER_ZONE)) * 1e6;
  const us = (v: number) => `${v.toFixed(1)} µs`;
  const build = (m: Measured) => `${(perMillion(m) / 1000).toFixed(2)} s (CPU ${((m.cpuMs / (m.zones * PER_ZONE)) * 1000).toFixed(2)} s)`;
  // "before": the layout of 7c95ca1 (a Node, an RRset, a data array and strings per name), measured
  // with this same bench on 2026-11-26; wall times swing with the shared machine's load, CPU less.
  return [
    { name: `Index heap+buffers per record, 1,000 zones × ${PER_ZONE} A`, value: B(half.bytes), reference: '250 B (aim)', ratio: pct(half.bytes, 250), before: '293 B' },
    { name: `Index RSS growth per record, 1,000 zones × ${PER_ZONE} A`, value: B(half.rss), reference: '250 B (aim)', ratio: pct(half.rss, 250), before: '346 B' },
    { name: `Index heap+buffers per record, 10,000 zones × ${PER_ZONE} A`, value: B(five.bytes), reference: '250 B (aim)', ratio: pct(five.bytes, 250), before: '292 B' },
    { name: `Index RSS growth per record, 10,000 zones × ${PER_ZONE} A`, value: B(five.rss), reference: '250 B (aim)', ratio: pct(five.rss, 250), before: '303 B' },
    { name: 'Index build from rows per million records, 500k', value: build(half), reference: '1 s (aim, incl. reading)', ratio: pct(perMillion(half), 1000), before: '2.6–3.5 s (CPU 2.4 s)' },
    { name: 'Index build from rows per million records, 5M', value: build(five), reference: '1 s (aim, incl. reading)', ratio: pct(perMillion(five), 1000), before: '2.4–3.3 s (CPU 2.0 s)' },
    {
      name: 'One-record change applied, 5M-record index vs 1k',
      value: us(five.changeUs),
      reference: `${us(small.changeUs)} (1k records)`,
      ratio: pct(five.changeUs, small.changeUs),
      before: '1.9 µs vs 1.2 µs',
    },
  ];
}

const at = process.argv.indexOf('--child');
if (at >= 0) await measure(Number(process.argv[at + 1]));
