/**
 * The DNS thread's counters driven directly: a known mix of answers gives exactly
 * its counts, and a random-subdomain flood of 1,000,000 distinct names leaves the top-k sketches at
 * their fixed size while a name asked often still comes out on top.
 */
import packet from 'dns-packet';
import { describe, expect, it, vi } from 'vitest';
import { SLOT } from '../../core/query-stats-fields';
import { BATCH_ZONES, LIVE_WORK, MAX_SKETCHED, MAX_ZONES, QueryStats, SLICE_MS, TOP_CAPACITY, TOP_SENT } from './query-stats';
import type { StatsBatch } from '../../core/query-stats-fields';
import { SpaceSaving } from './top-k';
import { questionKey } from '../wire/answer-cache';
import type { Zone } from '../index/zone';

const zone = (id: number, name = `z${id}.test`) => ({ id, name }) as Zone;

function query(name: string, type: string, dnssec = false): Buffer {
  return packet.encode({
    type: 'query',
    id: 1,
    questions: [{ name, type, class: 'IN' } as packet.Question],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssec ? packet.DNSSEC_OK : 0 } as unknown as packet.Answer],
  });
}

/** A response header: rcode, answer count, AA and TC as a real answer would carry them. */
function response(rcode: number, answers: number, { aa = true, tc = false } = {}): Buffer {
  const out = Buffer.alloc(12);
  out[2] = 0x80 | (aa ? 0x04 : 0) | (tc ? 0x02 : 0);
  out[3] = rcode;
  out.writeUInt16BE(answers, 6);
  return out;
}

describe('query counters', () => {
  it('count a known mix exactly: rcodes (NODATA apart), transports, DO, TC, qtypes, top names', () => {
    let now = Date.parse('2026-11-26T09:00:03Z');
    const stats = new QueryStats(() => now);
    const z = zone(7, 'example.com');
    for (let i = 0; i < 5; i++) stats.count(z, query('www.example.com', 'A'), response(0, 1), false);
    for (let i = 0; i < 3; i++) stats.count(z, query('WWW.Example.com', 'AAAA', true), response(0, 0), true); // NODATA, 0x20 case
    for (let i = 0; i < 2; i++) stats.count(z, query('nope.example.com', 'A'), response(3, 0), false);
    stats.count(z, query('big.example.com', 'TXT'), response(0, 0, { tc: true }), false);
    stats.count(z, query('sub.example.com', 'NS'), response(0, 0, { aa: false }), false); // a referral is not NODATA
    stats.count(null, query('other.invalid', 'A'), response(5, 0, { aa: false }), false);
    now += 10_000;
    const batch = stats.take()!;
    expect(batch.minute).toBe(Date.parse('2026-11-26T09:00:00Z') / 1000);
    const [c] = batch.zones;
    const got = (f: keyof typeof SLOT) => c!.counts[SLOT[f]];
    expect(c!.id).toBe(7);
    expect([got('queries'), got('noerror'), got('nodata'), got('nxdomain'), got('refused'), got('servfail')]).toEqual([12, 7, 3, 2, 0, 0]);
    expect([got('udp'), got('tcp'), got('dnssec_ok'), got('truncated')]).toEqual([9, 3, 3, 1]);
    expect([got('qtype_a'), got('qtype_aaaa'), got('qtype_txt'), got('qtype_ns')]).toEqual([7, 3, 1, 1]);
    expect(c!.names).toEqual([
      ['www.example.com', 8],
      ['nope.example.com', 2],
      ['big.example.com', 1],
      ['sub.example.com', 1],
    ]);
    expect(c!.nxdomain).toEqual([['nope.example.com', 2]]);
    // REFUSED outside every zone: counted, but under no zone.
    expect(batch.unattributed[SLOT.queries]).toBe(1);
    expect(batch.unattributed[SLOT.refused]).toBe(1);
    // A period hands its counts on once.
    expect(stats.take()).toBeNull();
  });

  it('a flood of 1,000,000 random names: each top list stays within its capacity, and the real top name stays on top', () => {
    const stats = new QueryStats();
    const z = zone(9, 'victim.test');
    const nx = response(3, 0);
    const ok = response(0, 1);
    const www = query('www.victim.test', 'A');
    // One query whose first label is rewritten in place: 1,000,000 distinct names without 1,000,000 encodings.
    const random = query('00000000000000.victim.test', 'A');
    const digits = '0123456789abcdef';
    const before = process.memoryUsage().heapUsed;
    let wwwAsked = 0;
    for (let i = 0; i < 1_000_000; i++) {
      if (i % 20 === 0) {
        stats.count(z, www, ok, false);
        wwwAsked++;
        continue;
      }
      let x = i;
      let r = (i * 2654435761) >>> 0;
      for (let k = 0; k < 6; k++, x >>>= 4) random[13 + k] = digits.charCodeAt(x & 15);
      for (let k = 6; k < 14; k++, r >>>= 4) random[13 + k] = digits.charCodeAt(r & 15);
      stats.count(z, random, nx, false);
    }
    const grown = process.memoryUsage().heapUsed - before;
    const batch = stats.take()!;
    const [c] = batch.zones;
    expect(c!.counts[SLOT.queries]).toBe(1_000_000);
    expect(c!.counts[SLOT.nxdomain]).toBe(1_000_000 - wwwAsked);
    // At most TOP_SENT names handed on per list; the one name asked 5% of the time is first, with no more than its real count.
    expect(c!.names.length).toBeLessThanOrEqual(TOP_SENT);
    expect(c!.names[0]![0]).toBe('www.victim.test');
    expect(c!.names[0]![1]).toBeLessThanOrEqual(wwwAsked);
    expect(c!.names[0]![1]).toBeGreaterThan(wwwAsked * 0.9);
    expect(c!.nxdomain.length).toBeLessThanOrEqual(TOP_SENT);
    // The flood's names each came once: none can be claimed to have come more than a few times.
    for (const [, n] of c!.nxdomain) expect(n).toBeLessThanOrEqual(2);
    // Memory: what the counters hold does not grow with the names (a few MB of garbage at most, collected or not).
    expect(grown).toBeLessThan(64 * 1024 * 1024);
  });

  it('the sketch never holds more than its capacity, and never overstates a guaranteed count', () => {
    const s = new SpaceSaving(TOP_CAPACITY);
    const truth = new Map<string, number>();
    for (let i = 0; i < 200_000; i++) {
      const name = i % 3 === 0 ? `hot${i % 7}` : `cold${i}`;
      truth.set(name, (truth.get(name) ?? 0) + 1);
      s.addNamed(hash(name), name);
    }
    expect(s.length).toBe(TOP_CAPACITY);
    const entries = s.entries();
    expect(
      entries
        .slice(0, 7)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['hot0', 'hot1', 'hot2', 'hot3', 'hot4', 'hot5', 'hot6']);
    for (const e of entries) expect(e.count - e.error).toBeLessThanOrEqual(truth.get(e.name)!);
  });

  it('answers from the cache, counted on their entries, tally exactly as answers counted one by one', () => {
    const z = zone(7, 'example.com');
    const mix: Array<[Buffer, Buffer, boolean, number]> = [
      [query('www.example.com', 'A'), response(0, 1), false, 5],
      [query('www.example.com', 'AAAA', true), response(0, 0), true, 3],
      [query('nope.example.com', 'A'), response(3, 0), false, 2],
      [query('big.example.com', 'TXT'), response(0, 0, { tc: true }), false, 1],
    ];
    const direct = new QueryStats(() => 0);
    const cached = new QueryStats(() => 0);
    for (const [q, r, tcp, n] of mix) {
      // The cache's entry for this question: its key as questionKey makes it, the response, the zone.
      const fast = questionKey(q, tcp)!;
      const entry = { key: fast.key, bytes: r, zone: z, zoneGen: 0, setGen: 0, until: 0, hits: 0, period: -1, rrlClass: 0, rrlName: 0 };
      for (let i = 0; i < n; i++) {
        direct.count(z, q, r, tcp);
        cached.countHit(entry, q, r, tcp);
      }
    }
    expect(cached.take()).toEqual(direct.take());
  });

  it('zones past MAX_ZONES in one period are counted, under no zone', () => {
    const stats = new QueryStats();
    const q = query('a.test', 'A');
    const r = response(0, 1);
    for (let id = 1; id <= MAX_ZONES + 5; id++) stats.count(zone(id), q, r, false);
    const batch = stats.take()!;
    expect(batch.zones.length).toBe(MAX_ZONES);
    expect(batch.unattributed[SLOT.queries]).toBe(5);
  });

  it('hands a period of many zones on in batches, with turns for the answers between, each zone once; stop finishes at once', async () => {
    const ZONES = BATCH_ZONES * 4 + 7;
    /** The same answers, counted one by one and from cache entries, for both counters. */
    const fill = (stats: QueryStats, round: number) => {
      for (let id = 1; id <= ZONES; id++) {
        const z = zone(id);
        const q = query(`www${round}.z${id}.test`, 'A');
        const r = response(id % 5 === 0 ? 3 : 0, id % 5 === 0 ? 0 : 1);
        stats.count(z, q, r, false);
        // Cache entries: 3,000 over the zones.
        for (let k = 0; k < Math.ceil(3000 / ZONES); k++) {
          const cq = query(`c${k}.z${id}.test`, 'AAAA');
          const entry = { key: questionKey(cq, false)!.key, bytes: r, zone: z, zoneGen: 0, setGen: 0, until: 0, hits: 0, period: -1, rrlClass: 0, rrlName: 0 };
          for (let n = 0; n <= k % 3; n++) stats.countHit(entry, cq, r, false);
        }
      }
    };
    const byZone = (batches: StatsBatch[]) => {
      const out = new Map<number, number[]>();
      for (const b of batches)
        for (const z of b.zones) {
          expect(out.has(z.id), `zone ${z.id} handed on twice`).toBe(false);
          out.set(z.id, z.counts);
        }
      return out;
    };
    const reference = new QueryStats();
    fill(reference, 0);
    const expected = byZone([reference.take()!]);

    const stats = new QueryStats();
    const batches: StatsBatch[] = [];
    // A question waiting on the socket: how many turns the event loop gave it while batches came.
    let turns = 0;
    const turnsAt: number[] = [];
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    fill(stats, 0);
    // A clock that moves 1 ms at each reading: slices end by their time (SLICE_MS), whatever the machine's speed.
    let clock = 0;
    let turnsAtStart = -1;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => {
      // The first reading: the hand-on begins.
      if (clock === 0) turnsAtStart = turns;
      return ++clock;
    });
    stats.start(100, (b) => {
      batches.push(b);
      turnsAt.push(turns);
    });
    await vi.waitFor(() => expect(batches.reduce((n, b) => n + b.zones.length, 0)).toBe(ZONES), { timeout: 5000, interval: 5 });
    now.mockRestore();
    ticking = false;
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil(ZONES / BATCH_ZONES));
    for (const b of batches) expect(b.zones.length).toBeLessThanOrEqual(BATCH_ZONES);
    // Turns while the 3,000 entries were tallied (each slice is SLICE_MS readings of the clock, 50 entries each)…
    expect(turnsAt[0]! - turnsAtStart).toBeGreaterThanOrEqual(Math.floor(3000 / (50 * (SLICE_MS + 1))) - 1);
    // …and between the batches: the answers did not wait for the whole period.
    expect(turnsAt.at(-1)! - turnsAt[0]!).toBeGreaterThanOrEqual(batches.length - 1);
    expect(byZone(batches)).toEqual(expected);
    stats.stop();

    // Stopped while a period is being handed on, with answers counted since: the rest of that period
    // and the new one come at once, nothing twice, nothing lost.
    fill(stats, 1);
    const more: StatsBatch[] = [];
    stats.start(100, (b) => {
      more.push(b);
      if (more.length === 1) {
        fill(stats, 2);
        stats.stop((rest) => more.push(rest));
      }
    });
    await vi.waitFor(() => expect(more.length).toBeGreaterThan(0), { timeout: 5000, interval: 5 });
    const twice = new QueryStats();
    fill(twice, 1);
    fill(twice, 2);
    const both = byZone([twice.take()!]);
    const got = new Map<number, number[]>();
    for (const b of more)
      for (const z of b.zones)
        got.set(
          z.id,
          (got.get(z.id) ?? new Array<number>(z.counts.length).fill(0)).map((v, i) => v + z.counts[i]!),
        );
    expect(got).toEqual(both);
  });
});

describe('busy periods', () => {
  it('past LIVE_WORK items (many zones), a minute is handed on once, at its end, under its own minute; a quiet period again, every tick', async () => {
    const minute = 29_000_000; // a minute, in minutes since 1970
    let now = minute * 60_000 + 10_000;
    const stats = new QueryStats(() => now);
    const batches: StatsBatch[] = [];
    const queries = () => batches.reduce((n, b) => n + b.zones.reduce((m, z) => m + z.counts[SLOT.queries]!, 0), 0);
    const r = response(0, 1);
    const ask = (zones: number) => {
      for (let id = 1; id <= zones; id++) stats.count(zone(id), query(`www.z${id}.test`, 'A'), r, false);
    };
    // Each zone hands on a row of counts, the first MAX_SKETCHED also one top name: just past LIVE_WORK.
    const MANY = LIVE_WORK - MAX_SKETCHED + 1;
    ask(MANY);
    stats.start(20, (b) => batches.push(b));
    // The first period is handed on at a tick, as any.
    await vi.waitFor(() => expect(queries()).toBe(MANY), { timeout: 5000, interval: 5 });
    const first = batches.length;
    // Busy: the ticks of the rest of the minute hand nothing on, and nothing is lost meanwhile.
    for (let round = 0; round < 3; round++) {
      ask(MANY);
      now += 1_000;
      await new Promise((res) => setTimeout(res, 80));
    }
    expect(batches.length).toBe(first);
    // The minute ends: its three rounds go on at the next tick, counted under that minute.
    now = (minute + 1) * 60_000 + 100;
    await vi.waitFor(() => expect(queries()).toBe(4 * MANY), { timeout: 5000, interval: 5 });
    expect(new Set(batches.slice(first).map((b) => b.minute))).toEqual(new Set([minute * 60]));
    // A quiet minute (three zones) is still held to its end, the last period having been busy…
    ask(3);
    now += 1_000;
    await new Promise((res) => setTimeout(res, 80));
    expect(queries()).toBe(4 * MANY);
    now = (minute + 2) * 60_000 + 100;
    await vi.waitFor(() => expect(queries()).toBe(4 * MANY + 3), { timeout: 5000, interval: 5 });
    expect(batches.at(-1)!.minute).toBe((minute + 1) * 60);
    // …and after it, ticks hand on at once again, within the minute.
    ask(3);
    now += 1_000;
    await vi.waitFor(() => expect(queries()).toBe(4 * MANY + 6), { timeout: 5000, interval: 5 });
    expect(batches.at(-1)!.minute).toBe((minute + 2) * 60);
    stats.stop();
  });

  it('few zones asked over many names (cache entries past LIVE_WORK) are busy too; under it, every tick', async () => {
    const minute = 29_000_010;
    let now = minute * 60_000 + 10_000;
    const stats = new QueryStats(() => now);
    const batches: StatsBatch[] = [];
    const queries = () => batches.reduce((n, b) => n + b.zones.reduce((m, z) => m + z.counts[SLOT.queries]!, 0), 0);
    const r = response(0, 1);
    // Ten zones, `names` names each, every answer from the answer cache (one entry per question).
    const entries = new Map<string, { q: Buffer; e: Parameters<QueryStats['countHit']>[0] }>();
    const ask = (names: number) => {
      for (let id = 1; id <= 10; id++)
        for (let n = 0; n < names; n++) {
          const name = `h${n}.z${id}.test`;
          let x = entries.get(name);
          if (!x) {
            const q = query(name, 'A');
            entries.set(name, (x = { q, e: { key: questionKey(q, false)!.key, bytes: r, zone: zone(id), zoneGen: 0, setGen: 0, until: 0, hits: 0, period: -1, rrlClass: 0, rrlName: 0 } }));
          }
          stats.countHit(x.e, x.q, r, false);
        }
    };
    // 10 × 100 entries, 10 zones and 160 top names: under LIVE_WORK, so the next tick hands on.
    ask(100);
    stats.start(20, (b) => batches.push(b));
    await vi.waitFor(() => expect(queries()).toBe(1_000), { timeout: 5000, interval: 5 });
    ask(100);
    now += 1_000;
    await vi.waitFor(() => expect(queries()).toBe(2_000), { timeout: 5000, interval: 5 });
    // 10 × 600 entries: past LIVE_WORK with ten zones. The next period of the minute is held…
    ask(600);
    now += 1_000;
    await vi.waitFor(() => expect(queries()).toBe(8_000), { timeout: 5000, interval: 5 });
    ask(100);
    now += 1_000;
    await new Promise((res) => setTimeout(res, 80));
    expect(queries()).toBe(8_000);
    // …to the minute's end.
    now = (minute + 1) * 60_000 + 100;
    await vi.waitFor(() => expect(queries()).toBe(9_000), { timeout: 5000, interval: 5 });
    stats.stop();
  });
});

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
