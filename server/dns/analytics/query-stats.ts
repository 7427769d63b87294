/**
 * Per-zone query counting in the DNS thread. An answer from the answer cache costs
 * one increment on its cache entry (`countHit`): the entry holds the zone, the question and the
 * response, so its answers are tallied into the zone's counters and top-k sketches once per entry
 * and period. An answer made anew (`count`) costs a few increments in a fixed array of its zone's
 * counters and a hash of the question name into two bounded top-k sketches (top-k.ts). Nothing is
 * written per query. Every `flushMs` (aligned to the clock, so no period straddles a minute) the
 * counts of the period are handed to `flush` (the main thread, which stores them) and start again
 * from zero. Memory is bounded whatever the queries carry: at most MAX_ZONES zones a period
 * (beyond: counted apart, unattributed), top-k sketches for the first MAX_SKETCHED of them,
 * TOP_CAPACITY names each, MAX_TOUCHED cache entries tallied a period.
 */
import { turn } from '../../core/pause';
import { QTYPES, SLOT, STAT_FIELDS, type StatsBatch, type ZoneStatsBatch } from '../../core/query-stats-fields';
import { SpaceSaving } from './top-k';
import type { Entry } from '../wire/answer-cache';
import type { Zone } from '../index/zone';

export const TOP_CAPACITY = 64;
/** Names of each top list handed on per zone and period (the most counted). */
export const TOP_SENT = 16;
export const MAX_ZONES = 20_000;
export const MAX_SKETCHED = 2_000;
/** Cache entries tallied a period (beyond: their answers are counted one by one). */
export const MAX_TOUCHED = 100_000;
/**
 * The work a period may carry and still be handed on at every tick: its cache entries tallied,
 * plus the rows it hands on to be stored (a zone's counts, a name of a top list). Past this, the
 * periods that follow are held to the end of their minute (one hand-on a minute instead of one a
 * tick): handing on and storing cost by these items, not by the answer. At 10,000 zones, a hand-on
 * every 5 s took ~15% of the one core answering (once a minute, ~1%); at 1,000 zones asked over
 * 20,000 names (~37,000 items a period) it held answers up 30-57 ms at every 5 s mark (once a
 * minute: none over 32 ms). A held period ends sooner, at a tick, once it holds half of MAX_ZONES
 * zones or MAX_TOUCHED entries, so holding never loses a zone's attribution.
 */
export const LIVE_WORK = 5_000;

const WIDTH = STAT_FIELDS.length;
// Slots as constants: SLOT is built from a list (a dictionary to V8), too slow to read on every answer.
const QUERIES = SLOT.queries;
const UDP = SLOT.udp;
const TCP = SLOT.tcp;
const TRUNCATED = SLOT.truncated;
const DNSSEC_OK = SLOT.dnssec_ok;
const NOERROR = SLOT.noerror;
const NODATA = SLOT.nodata;
const NXDOMAIN = SLOT.nxdomain;
const REFUSED = SLOT.refused;
const SERVFAIL = SLOT.servfail;
const OTHER_RCODE = SLOT.other_rcode;
const QTYPE_OTHER = SLOT.qtype_other;
const QTYPE_SLOT = new Uint8Array(512).fill(SLOT.qtype_other);
for (const [name, code] of Object.entries(QTYPES)) QTYPE_SLOT[code] = SLOT[`qtype_${name}` as keyof typeof SLOT];

class ZoneCounters {
  readonly counts = new Float64Array(WIDTH);
  names: SpaceSaving | null;
  nxdomain: SpaceSaving | null = null;
  constructor(
    readonly id: number,
    readonly name: string,
    readonly sketched: boolean,
  ) {
    this.names = sketched ? new SpaceSaving(TOP_CAPACITY) : null;
  }
}

/** A wire-format name (as latin1 text, labels with their length octets) as text: lower case, no final dot. */
function nameText(wire: string): string {
  let out = '';
  let i = 0;
  while (i < wire.length && wire.charCodeAt(i) !== 0) {
    const l = wire.charCodeAt(i);
    if (out) out += '.';
    out += wire.slice(i + 1, i + 1 + l);
    i += l + 1;
  }
  return out.toLowerCase();
}

const top = (s: SpaceSaving | null): Array<[string, number]> =>
  s === null
    ? []
    : s
        .entries(nameText)
        .map((e) => [e.name, e.count - e.error] as [string, number])
        .filter((e) => e[1] > 0)
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP_SENT);

/**
 * How long the hand-on of a period works between two turns of the event loop (questions waiting on
 * the socket are answered in the turns): cache entries are tallied, and zones put in batches, until
 * this has passed, checked every SLICE_CHECK items. By time, not by count: the first entries of a
 * period cost more (each may make its zone's counters and sketches), and a slice must stay short
 * whatever its items cost. A batch holds at most BATCH_ZONES zones.
 */
export const SLICE_MS = 4;
const SLICE_CHECK = 50;
export const BATCH_ZONES = 100;

/** The counts of one period: per zone (the first MAX_ZONES of it), and those of no zone. */
class Tallies {
  readonly zones = new Map<number, ZoneCounters>();
  readonly unattributed = new Float64Array(WIDTH);
  private sketched = 0;

  counters(zone: Zone): ZoneCounters | null {
    let z = this.zones.get(zone.id);
    if (z === undefined) {
      if (this.zones.size >= MAX_ZONES) return null;
      z = new ZoneCounters(zone.id, zone.name, this.sketched < MAX_SKETCHED);
      if (z.sketched) this.sketched++;
      this.zones.set(zone.id, z);
    }
    return z;
  }
}

/** A period that ended: its counts, and the cache entries that answered in it with their hits then. */
interface Ended {
  minute: number;
  tallies: Tallies;
  touched: Entry[];
  hits: Float64Array;
}

/** Adds the answers of cache entries `from`..`to` of an ended period, each as its hits of its question. */
function tally(ended: Ended, from: number, to: number): void {
  const { tallies, touched, hits } = ended;
  for (let i = from; i < to; i++) {
    const e = touched[i]!;
    const zone = e.zone;
    const z = zone === null || zone.id <= 0 ? null : tallies.counters(zone);
    const c = z === null ? tallies.unattributed : z.counts;
    const n = hits[i]!;
    const out = e.bytes;
    const key = e.key;
    // The key: the lower-cased wire name, type, class, the transport octet, then (EDNS) payload and flags (answer-cache.ts).
    let end = 0;
    while (end < key.length && key.charCodeAt(end) !== 0) end += key.charCodeAt(end) + 1;
    const qtype = (key.charCodeAt(end + 1) << 8) | key.charCodeAt(end + 2);
    c[QUERIES]! += n;
    c[key.charCodeAt(end + 5) === 1 ? TCP : UDP]! += n;
    if (key.length > end + 8 && key.charCodeAt(end + 8) & 0x80) c[DNSSEC_OK]! += n;
    c[qtype < 512 ? QTYPE_SLOT[qtype]! : QTYPE_OTHER]! += n;
    if (out[2]! & 0x02) c[TRUNCATED]! += n;
    const rcode = out[3]! & 0x0f;
    const answers = out[6]! | out[7]!;
    c[rcode === 0 ? (answers === 0 && (out[2]! & 0x06) === 0x04 ? NODATA : NOERROR) : rcode === 3 ? NXDOMAIN : rcode === 5 ? REFUSED : rcode === 2 ? SERVFAIL : OTHER_RCODE]! += n;
    if (z === null || z.names === null) continue;
    let h = 0x811c9dc5;
    for (let k = 0; k < end; k++) h = Math.imul(h ^ key.charCodeAt(k), 0x01000193);
    const wire = key.slice(0, end + 1);
    const slot = z.names.add(h, n);
    if (slot >= 0) z.names.name(slot, wire);
    if (rcode === 3) {
      const nx = (z.nxdomain ??= new SpaceSaving(TOP_CAPACITY));
      const s = nx.add(h, n);
      if (s >= 0) nx.name(s, wire);
    }
  }
}

/**
 * The work of an ended period (LIVE_WORK): its cache entries to tally, and the rows it hands on —
 * each zone's counts and at most TOP_SENT names of each top list. Read when the period ends, it
 * knows the zones counted one answer at a time; once its entries are tallied, every zone.
 */
function workOf(ended: Ended): number {
  let work = ended.touched.length;
  for (const z of ended.tallies.zones.values()) work += 1 + Math.min(z.names?.length ?? 0, TOP_SENT) + Math.min(z.nxdomain?.length ?? 0, TOP_SENT);
  return work;
}

const zoneBatch = (z: ZoneCounters): ZoneStatsBatch => ({ id: z.id, name: z.name, counts: Array.from(z.counts), names: top(z.names), nxdomain: top(z.nxdomain) });

/**
 * The work of handing an ended period on, in steps: `null` where the event loop may take a turn
 * (after each SLICE_MS of the tally, and between batches), a batch of at most BATCH_ZONES zones
 * when one is ready. The unattributed counts go with the first batch.
 */
function* handOnSteps(ended: Ended): Generator<StatsBatch | null> {
  const { touched } = ended;
  let i = 0;
  while (i < touched.length) {
    const until = performance.now() + SLICE_MS;
    do {
      const to = Math.min(i + SLICE_CHECK, touched.length);
      tally(ended, i, to);
      i = to;
    } while (i < touched.length && performance.now() < until);
    yield null;
  }
  const { zones, unattributed } = ended.tallies;
  if (zones.size === 0 && unattributed[SLOT.queries] === 0) return;
  let chunk: ZoneStatsBatch[] = [];
  let first = true;
  const batch = () => {
    const b = { minute: ended.minute, zones: chunk, unattributed: first ? Array.from(unattributed) : new Array<number>(WIDTH).fill(0) };
    first = false;
    chunk = [];
    return b;
  };
  let until = performance.now() + SLICE_MS;
  let n = 0;
  for (const z of zones.values()) {
    chunk.push(zoneBatch(z));
    n++;
    if (chunk.length === BATCH_ZONES || (n % SLICE_CHECK === 0 && performance.now() >= until)) {
      yield batch();
      yield null;
      until = performance.now() + SLICE_MS;
    }
  }
  if (chunk.length > 0 || first) yield batch();
}

/** The minute of a moment (ms), a timer a moment early counting for the next minute. */
const minuteOf = (ms: number) => Math.floor((ms + 250) / 60_000);

export class QueryStats {
  private tallies = new Tallies();
  private last: Zone | null = null;
  private lastCounters: ZoneCounters | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When the period being counted began (ms). */
  private since: number;
  /** The counting period (one per take), and the cache entries that answered in it. */
  private period = 0;
  private touched: Entry[] = [];
  /** Ended periods being handed on by the timer, a slice at a time, in order (`stop` finishes them at once). */
  private pending: Array<{ ended: Ended; steps: Generator<StatsBatch | null> }> = [];
  /** Whether the last period ended carried more than LIVE_WORK items (`workOf`): the ticks of its minute are then held. */
  private busy = false;

  constructor(private readonly now: () => number = Date.now) {
    this.since = now();
  }

  /**
   * Counts one answer from the answer cache: an increment on its entry. Everything else about it
   * (zone, rcode, type, transport, DO, name) is the entry's, and is tallied once per entry and
   * period when the period ends, so a repeated question costs no hash and no top-k update.
   */
  countHit(e: Entry, query: Buffer, out: Buffer, tcp: boolean): void {
    if (e.period === this.period) {
      e.hits++;
      return;
    }
    if (this.touched.length >= MAX_TOUCHED) return this.count(e.zone, query, out, tcp);
    e.period = this.period;
    e.hits = 1;
    this.touched.push(e);
  }

  /**
   * Counts one answer: `query` the client's message, `out` our response (its RCODE, answer count
   * and TC bit), `zone` the zone that answered (null: none of ours).
   */
  count(zone: Zone | null, query: Buffer, out: Buffer, tcp: boolean): void {
    if (query.length < 17 || out.length < 12) return;
    let c: Float64Array;
    let z: ZoneCounters | null = null;
    if (zone === null || zone.id <= 0) c = this.tallies.unattributed;
    else {
      z = zone === this.last ? this.lastCounters : this.counters(zone);
      c = z === null ? this.tallies.unattributed : z.counts;
    }
    c[QUERIES]! += 1;
    c[tcp ? TCP : UDP]! += 1;
    if (out[2]! & 0x02) c[TRUNCATED]! += 1;
    const rcode = out[3]! & 0x0f;
    const answers = out[6]! | out[7]!;
    // NODATA: an authoritative NOERROR without answers (a referral, AA clear, is a NOERROR; so is a truncated answer).
    c[rcode === 0 ? (answers === 0 && (out[2]! & 0x06) === 0x04 ? NODATA : NOERROR) : rcode === 3 ? NXDOMAIN : rcode === 5 ? REFUSED : rcode === 2 ? SERVFAIL : OTHER_RCODE]! += 1;
    if ((query[4]! | query[5]!) === 0) return;
    // The question: name, then type; an OPT right after it holds the DO bit (RFC 3225).
    let i = 12;
    const len = query.length;
    let h = 0x811c9dc5;
    // FNV-1a over the name's octets, upper case folded (queries may randomize case), as it is walked.
    while (i < len) {
      const l = query[i]!;
      if (l === 0) break;
      if (l > 63) return;
      const end = i + l + 1;
      for (; i < end && i < len; i++) {
        const ch = query[i]!;
        h = Math.imul(h ^ (ch >= 0x41 && ch <= 0x5a ? ch | 0x20 : ch), 0x01000193);
      }
    }
    const nameEnd = i + 1;
    if (nameEnd + 4 > len) return;
    const qtype = (query[nameEnd]! << 8) | query[nameEnd + 1]!;
    c[qtype < 512 ? QTYPE_SLOT[qtype]! : QTYPE_OTHER]! += 1;
    const opt = nameEnd + 4;
    if (query[11]! > 0 && opt + 11 <= len && query[opt] === 0 && query[opt + 1] === 0 && query[opt + 2] === 41 && query[opt + 7]! & 0x80) c[DNSSEC_OK]! += 1;
    if (z === null || z.names === null) return;
    // The name's text is copied only when it takes a slot of a sketch (a name new to it).
    let wire: string | null = null;
    const slot = z.names.add(h);
    if (slot >= 0) z.names.name(slot, (wire = query.toString('latin1', 12, nameEnd)));
    if (rcode === 3) {
      const nx = (z.nxdomain ??= new SpaceSaving(TOP_CAPACITY));
      const s = nx.add(h);
      if (s >= 0) nx.name(s, wire ?? query.toString('latin1', 12, nameEnd));
    }
  }

  private counters(zone: Zone): ZoneCounters | null {
    const z = this.tallies.counters(zone);
    this.last = zone;
    this.lastCounters = z;
    return z;
  }

  /** Ends the period being counted (cheap: the counts are kept as they are) and starts the next from zero. */
  private end(): Ended {
    const minute = minuteOf(this.since) * 60;
    // Each entry's hits as they are now: the next period counts on the same entries.
    const ended: Ended = { minute, tallies: this.tallies, touched: this.touched, hits: Float64Array.from(this.touched, (e) => e.hits) };
    this.since = this.now();
    this.tallies = new Tallies();
    this.touched = [];
    this.period++;
    this.last = null;
    this.lastCounters = null;
    return ended;
  }

  /** The counts since the last take, in one batch, and a fresh start; null when nothing was counted. */
  take(): StatsBatch | null {
    let out: StatsBatch | null = null;
    // The hand-on's batches at once, as one (the first carries the unattributed counts).
    for (const b of handOnSteps(this.end())) {
      if (!b) continue;
      if (out) out.zones.push(...b.zones);
      else out = b;
    }
    return out;
  }

  /**
   * Hands the counts to `flush` every `ms`, at multiples of `ms` of the clock (a period never
   * straddles a minute when `ms` divides 60 s): in batches of at most BATCH_ZONES zones, with a turn
   * of the event loop between slices of the work, so the answers never wait for all of it (at
   * 10,000 zones it is ~100-300 ms of work). While the periods carry more than LIVE_WORK items, a
   * tick within the period's minute hands nothing on: the minute's counts go on at its end.
   */
  start(ms: number, flush: (batch: StatsBatch) => void): void {
    const handOn = async () => {
      while (this.pending.length > 0) {
        const job = this.pending[0]!;
        for (let step = job.steps.next(); !step.done; step = job.steps.next()) {
          if (step.value) flush(step.value);
          else await turn();
        }
        // (`stop` may have emptied the queue meanwhile.)
        if (this.pending[0] === job) {
          this.pending.shift();
          // Tallied, the period knows all its zones: busy now if they make it so, unless a later period ended meanwhile.
          if (this.pending.length === 0) this.busy = workOf(job.ended) > LIVE_WORK;
        }
      }
    };
    const tick = () => {
      if (!this.holding()) {
        const ended = this.end();
        // Known at once, so the next tick holds even while this period is still being handed on.
        this.busy = workOf(ended) > LIVE_WORK;
        this.pending.push({ ended, steps: handOnSteps(ended) });
        if (this.pending.length === 1) void handOn();
      }
      this.timer = setTimeout(tick, ms - (Date.now() % ms));
      this.timer.unref();
    };
    this.timer = setTimeout(tick, ms - (Date.now() % ms));
    this.timer.unref();
  }

  /** Whether a tick now keeps counting into the period: a busy one, still in its minute, with room left. */
  private holding(): boolean {
    return this.busy && minuteOf(this.now()) === minuteOf(this.since) && this.tallies.zones.size < MAX_ZONES / 2 && this.touched.length < MAX_TOUCHED / 2;
  }

  /** Stops the timer and hands on what is left, at once: the period being handed on, then the current one. */
  stop(flush?: (batch: StatsBatch) => void): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.busy = false;
    const pending = this.pending;
    this.pending = [];
    for (const { steps } of pending) for (const step of steps) if (step && flush) flush(step);
    const batch = this.take();
    if (batch && flush) flush(batch);
  }
}
