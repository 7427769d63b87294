/**
 * A zone's query statistics through the API. Batches as the DNS thread hands them on are
 * stored by the recorder (two nodes, as on PostgreSQL), then read back: exact counts per step, the
 * top lists, access as every zone path (a team's viewer reads, a stranger gets 404, a token scoped
 * to another zone 403), bad parameters 400 naming the field, and retention (minute rows 48 h, hourly
 * STATS_DAYS). Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SLOT, STAT_FIELDS } from '../../core/query-stats-fields';
import type { StatsBatch } from '../../core/query-stats-fields';
import { createStatsRecorder, MAX_PENDING_TOP } from '../../services/analytics/stats-recorder';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { inMemory, join } from '../../testing/team-members';

let t: TestApp;
const tok: Record<string, string> = {};
let zoneId = 0;
const NOW = Date.now();
const minute = Math.floor(NOW / 60_000) * 60;

function counts(values: Partial<Record<keyof typeof SLOT, number>>): number[] {
  const a = new Array<number>(STAT_FIELDS.length).fill(0);
  for (const [k, v] of Object.entries(values)) a[SLOT[k as keyof typeof SLOT]] = v;
  return a;
}

beforeAll(async () => {
  t = await createTestApp();
  for (const p of ['olivia', 'victor', 'stranger']) tok[p] = await t.user(p);
  expect((await t.request('POST', '/api/v1/teams', { token: tok.olivia, body: { name: 'Crew' } })).status).toBe(201);
  await join(inMemory(t), 'crew', tok.olivia!, { username: 'victor', token: tok.victor! }, 'viewer');
  const res = await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: 'traffic.test', team: 'crew' } });
  expect(res.status).toBe(201);
  zoneId = (await t.services.store.domains.byName('traffic.test'))!.id;
  // Two nodes, each with its own rows; two periods of the same minute on the first.
  const batch = (m: number, c: number[], names: Array<[string, number]>, nxdomain: Array<[string, number]> = []): StatsBatch => ({
    minute: m,
    zones: [{ id: zoneId, name: 'traffic.test', counts: c, names, nxdomain }],
    unattributed: counts({}),
  });
  const one = createStatsRecorder(t.forge, {
    node: 'node-one',
    days: 90,
    metricsPerZone: false,
    onError: (e) => {
      throw e;
    },
  });
  const two = createStatsRecorder(t.forge, {
    node: 'node-two',
    days: 90,
    metricsPerZone: false,
    onError: (e) => {
      throw e;
    },
  });
  one.record(
    batch(
      minute - 120,
      counts({ queries: 10, noerror: 7, nxdomain: 3, udp: 10, qtype_a: 10 }),
      [
        ['www.traffic.test', 7],
        ['gone.traffic.test', 3],
      ],
      [['gone.traffic.test', 3]],
    ),
  );
  one.record(batch(minute - 120, counts({ queries: 2, nodata: 2, tcp: 2, dnssec_ok: 2, qtype_aaaa: 2 }), [['www.traffic.test', 2]]));
  two.record(
    batch(
      minute - 60,
      counts({ queries: 5, noerror: 4, nxdomain: 1, udp: 5, truncated: 1, qtype_txt: 5 }),
      [
        ['www.traffic.test', 4],
        ['typo.traffic.test', 1],
      ],
      [['typo.traffic.test', 1]],
    ),
  );
  await Promise.all([one.close(), two.close()]);
});
afterAll(() => t.close());

const get = (url: string, token = tok.olivia) => t.request('GET', url, { token });

describe('GET /domains/:name/stats', () => {
  it('sums every node per minute, with empty minutes as zeros and totals', async () => {
    const from = new Date((minute - 180) * 1000).toISOString();
    const to = new Date(minute * 1000).toISOString();
    const res = await get(`/api/v1/domains/traffic.test/stats?from=${from}&to=${to}&step=60`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.step).toBe(60);
    expect(body.points.map((p: { at: string; queries: number }) => [p.at, p.queries])).toEqual([
      [new Date((minute - 180) * 1000).toISOString(), 0],
      [new Date((minute - 120) * 1000).toISOString(), 12],
      [new Date((minute - 60) * 1000).toISOString(), 5],
    ]);
    expect(body.totals).toMatchObject({ queries: 17, noerror: 11, nxdomain: 4, nodata: 2, udp: 15, tcp: 2, dnssec_ok: 2, truncated: 1, qtype_a: 10, qtype_aaaa: 2, qtype_txt: 5, servfail: 0 });
    // Steps of 3 minutes (aligned to multiples of 180 s): the same totals, fewer points.
    const coarse = await (await get(`/api/v1/domains/traffic.test/stats?from=${from}&to=${to}&step=180`)).json();
    expect(coarse.points.length).toBeLessThanOrEqual(2);
    expect(coarse.points.reduce((n: number, p: { queries: number }) => n + p.queries, 0)).toBe(17);
  });

  it('defaults to the last hour and reads hourly rows for a range past 48 hours', async () => {
    const res = await (await get('/api/v1/domains/traffic.test/stats')).json();
    expect(res.totals.queries).toBe(17);
    expect(res.points.length).toBeGreaterThanOrEqual(60);
    const week = await (await get(`/api/v1/domains/traffic.test/stats?from=${new Date(NOW - 7 * 86400_000).toISOString()}`)).json();
    expect(week.step % 3600).toBe(0);
    expect(week.totals.queries).toBe(17);
  });

  it('a team viewer reads; a stranger gets 404 and a token of another zone 403', async () => {
    expect((await get('/api/v1/domains/traffic.test/stats', tok.victor)).status).toBe(200);
    expect((await get('/api/v1/domains/traffic.test/stats/top', tok.victor)).status).toBe(200);
    expect((await get('/api/v1/domains/traffic.test/stats', tok.stranger)).status).toBe(404);
    const owner = (await t.services.store.users.byUsername('olivia'))!;
    const scoped = await t.services.accounts.createToken(owner.id, 'other zone', null, { zones: ['elsewhere.test'] });
    expect((await get('/api/v1/domains/traffic.test/stats', scoped.token)).status).toBe(403);
  });

  it('bad parameters answer 400 naming the field', async () => {
    const field = async (url: string) => {
      const res = await get(url);
      expect(res.status).toBe(400);
      return Object.keys((await res.json()).error.fields ?? {});
    };
    expect(await field('/api/v1/domains/traffic.test/stats?from=yesterday')).toEqual(['from']);
    expect(await field('/api/v1/domains/traffic.test/stats?step=90')).toEqual(['step']);
    expect(await field(`/api/v1/domains/traffic.test/stats?from=${new Date(NOW - 10 * 86400_000).toISOString()}&step=60`)).toEqual(['step']);
    expect(await field('/api/v1/domains/traffic.test/stats/top?kind=everything')).toEqual(['kind']);
  });
});

describe('GET /domains/:name/stats/top', () => {
  it('lists the most asked names and NXDOMAIN names, summed over nodes', async () => {
    const names = await (await get('/api/v1/domains/traffic.test/stats/top?kind=names')).json();
    expect(names.names).toEqual([
      { name: 'www.traffic.test', count: 13 },
      { name: 'gone.traffic.test', count: 3 },
      { name: 'typo.traffic.test', count: 1 },
    ]);
    const nx = await (await get('/api/v1/domains/traffic.test/stats/top?kind=nxdomain&limit=1')).json();
    expect(nx.names).toEqual([{ name: 'gone.traffic.test', count: 3 }]);
  });
});

describe('retention', () => {
  it('drops minute rows after 48 hours and hourly rows after STATS_DAYS', async () => {
    const recorder = createStatsRecorder(t.forge, {
      node: 'node-one',
      days: 3,
      metricsPerZone: false,
      onError: (e) => {
        throw e;
      },
    });
    await recorder.prune(NOW + 49 * 3600_000);
    const recent = await (await get(`/api/v1/domains/traffic.test/stats?from=${new Date(NOW - 3600_000).toISOString()}`)).json();
    expect(recent.totals.queries).toBe(0); // minute rows gone
    const days = await (await get(`/api/v1/domains/traffic.test/stats?from=${new Date(NOW - 3 * 86400_000).toISOString()}`)).json();
    expect(days.totals.queries).toBe(17); // hourly rows kept
    await recorder.prune(NOW + 4 * 86400_000);
    const after = await (await get(`/api/v1/domains/traffic.test/stats?from=${new Date(NOW - 3 * 86400_000).toISOString()}`)).json();
    expect(after.totals.queries).toBe(0);
    expect((await (await get('/api/v1/domains/traffic.test/stats/top')).json()).names).toEqual([]);
    await recorder.close();
  });
});

describe('the recorder', () => {
  it('adds up batches that come faster than it writes, and stores their exact sums per minute, hour and name', async () => {
    expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: 'busy.test' } })).status).toBe(201);
    const id = (await t.services.store.domains.byName('busy.test'))!.id;
    const recorder = createStatsRecorder(t.forge, {
      node: 'node-one',
      days: 90,
      metricsPerZone: false,
      onError: (e) => {
        throw e;
      },
    });
    const base = minute - 240;
    // 30 batches back to back, over three minutes: the first is written at once, the others while it is.
    for (let i = 0; i < 30; i++) {
      recorder.record({
        minute: base + (i % 3) * 60,
        zones: [
          {
            id,
            name: 'busy.test',
            counts: counts({ queries: 2, noerror: 1, nxdomain: 1, udp: 2 }),
            names: [
              ['www.busy.test', 1],
              [`n${i % 2}.busy.test`, 1],
            ],
            nxdomain: [['typo.busy.test', 1]],
          },
        ],
        unattributed: counts({}),
      });
    }
    await recorder.close();
    const from = new Date(base * 1000).toISOString();
    const to = new Date((base + 180) * 1000).toISOString();
    const body = await (await get(`/api/v1/domains/busy.test/stats?from=${from}&to=${to}&step=60`)).json();
    expect(body.points.map((p: { queries: number }) => p.queries)).toEqual([20, 20, 20]);
    expect(body.totals).toMatchObject({ queries: 60, noerror: 30, nxdomain: 30, udp: 60 });
    const names = await (await get(`/api/v1/domains/busy.test/stats/top?kind=names&from=${new Date((base - 3600) * 1000).toISOString()}`)).json();
    expect(names.names).toEqual([
      { name: 'www.busy.test', count: 30 },
      { name: 'n0.busy.test', count: 15 },
      { name: 'n1.busy.test', count: 15 },
    ]);
    const nx = await (await get(`/api/v1/domains/busy.test/stats/top?kind=nxdomain&from=${new Date((base - 3600) * 1000).toISOString()}`)).json();
    expect(nx.names).toEqual([{ name: 'typo.busy.test', count: 30 }]);
  });

  it('keeps at most MAX_PENDING_TOP names waiting, however many distinct names a flood brings', async () => {
    expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: 'flood.test' } })).status).toBe(201);
    const id = (await t.services.store.domains.byName('flood.test'))!.id;
    const recorder = createStatsRecorder(t.forge, {
      node: 'node-one',
      days: 90,
      metricsPerZone: false,
      onError: (e) => {
        throw e;
      },
    });
    const names: Array<[string, number]> = [['hot.flood.test', 1]];
    for (let i = 0; i < MAX_PENDING_TOP + 500; i++) names.push([`r${i}.flood.test`, 1]);
    const batch = (m: number) => ({ minute: m, zones: [{ id, name: 'flood.test', counts: counts({ queries: 1 }), names, nxdomain: [] }], unattributed: counts({}) });
    recorder.record(batch(minute - 60));
    recorder.record(batch(minute - 60));
    await recorder.close();
    const stored = await t.services.store.queryStats.top(id, 'names', minute - 7200, minute + 3600, MAX_PENDING_TOP * 3);
    // Each batch brings more names than may wait: the first MAX_PENDING_TOP are kept, the rest dropped.
    expect(stored.length).toBe(MAX_PENDING_TOP);
    expect(stored.find((n) => n.name === 'hot.flood.test')!.count).toBe(2);
  }, 60_000);

  it('stores a big write a transaction at a time, the main thread answering between them; flushed stores the rest at once', async () => {
    expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: 'paced.test' } })).status).toBe(201);
    const id = (await t.services.store.domains.byName('paced.test'))!.id;
    const recorder = createStatsRecorder(t.forge, {
      node: 'node-one',
      days: 90,
      metricsPerZone: false,
      onError: (e) => {
        throw e;
      },
    });
    // 12,000 minutes of one zone: 12,200 rows, a dozen transactions.
    const MINUTES = 12_000;
    const first = minute - MINUTES * 60;
    const stored = async () => (await t.services.store.queryStats.series(id, 60, first, minute, 60)).length;
    /** Whether a minute's row is stored (rows go in the order they came). */
    const has = async (m: number) => (await t.services.store.queryStats.series(id, 60, first + m * 60, first + m * 60 + 60, 60)).length === 1;
    for (let m = 0; m < MINUTES; m++)
      recorder.record({ minute: first + m * 60, zones: [{ id, name: 'paced.test', counts: counts({ queries: 1 }), names: [], nxdomain: [] }], unattributed: counts({}) });
    // Reads of this thread (as HTTP requests and the DNS thread's hand-ons would be) are answered
    // while the write goes on: half of it is seen stored while the rest is not yet. How much of the
    // thread the write takes is bench/analytics.ts's figure.
    await vi.waitFor(async () => expect(await has(MINUTES / 2)).toBe(true), { timeout: 30_000, interval: 20 });
    expect(await stored()).toBeLessThan(MINUTES);
    await recorder.flushed();
    expect(await stored()).toBe(MINUTES);
    await recorder.close();
  }, 60_000);
});
