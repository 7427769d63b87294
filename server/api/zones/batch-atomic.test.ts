/**
 * A batch across zones is all or nothing. Its zones' change sets are written in one
 * transaction: when the third zone fails between the preview and the write (its change no longer
 * holds), the batch answers 409 naming that zone and saying nothing was changed — the first two
 * zones keep their records and serials, no change set is written, and no zone event goes out.
 * When it holds, every zone changes under one batch id and the events go out after the commit.
 * SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict } from '../../core/errors';
import type { BatchResult, ZoneJob } from '../../services/across-zones/batches';
import type { WriteOptions } from '../../services/changes/change-sets';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let token: string;
let userId: number;
const ZONES = ['one.example', 'two.example', 'three.example'];

beforeAll(async () => {
  t = await createTestApp();
  const { user } = await t.services.accounts.addUser('dana');
  userId = user.id;
  token = (await t.services.accounts.createToken(user.id, 'test')).token;
  for (const name of ZONES) {
    expect((await t.request('POST', '/api/v1/domains', { token, body: { name } })).status).toBe(201);
    expect((await t.request('POST', `/api/v1/domains/${name}/records`, { token, body: { name: 'www', record_type: 'A', content: '192.0.2.10' } })).ok).toBe(true);
  }
});
afterAll(() => t.close());

/** What a user sees of a zone: its serial, its www addresses and how many change sets its history holds. */
async function seen(zone: string) {
  const z = await t.request('GET', `/api/v1/domains/${zone}`, { token });
  const records = (await (await t.request('GET', `/api/v1/domains/${zone}/records?name=www&per_page=100`, { token })).json()) as Array<{ name: string; record_type: string; content: string }>;
  const history = await t.request('GET', `/api/v1/domains/${zone}/changes`, { token });
  return {
    serial: ((await z.json()) as { serial_number: number }).serial_number,
    www: records.filter((r) => r.record_type === 'A' && r.name.startsWith('www')).map((r) => r.content),
    changes: history.headers.get('x-total-count'),
  };
}

const opts = (): WriteOptions => ({ source: 'api', actor: { username: 'dana', credential: 'token:test', userId }, comment: 'move www' });

/** Jobs that move every zone's www to `to`; the last zone's change breaks on its second try (the write, after the preview). */
async function jobs(to: string, breakLast: boolean): Promise<ZoneJob[]> {
  const out: ZoneJob[] = [];
  for (const [i, name] of ZONES.entries()) {
    const zone = (await t.services.store.domains.byName(name))!;
    let tries = 0;
    out.push({
      zone,
      build: async ({ draft }) => {
        tries++;
        await draft.load(new Set(['www', '@']));
        draft.put('www', 'A', [{ content: to, ttl: 300, disabled: false }], 300);
        // The zone as it is at the write no longer takes the change: a CNAME beside the apex's SOA and NS is refused.
        if (breakLast && i === ZONES.length - 1 && tries === 2) draft.put('@', 'CNAME', [{ content: 'elsewhere.example.', ttl: 300, disabled: false }], 300);
      },
    });
  }
  return out;
}

describe('a batch across zones is all or nothing', () => {
  it('changes no zone when the third fails between the preview and the write: 409 naming it, records, serials and history as they were, no event', async () => {
    const before = await Promise.all(ZONES.map(seen));
    expect(before.map((s) => s.www)).toEqual([['192.0.2.10'], ['192.0.2.10'], ['192.0.2.10']]);
    const events: string[] = [];
    const stop = t.services.events.subscribe((e) => events.push(e.domain.name));
    let error: unknown;
    try {
      await t.services.batches.run(userId, await jobs('192.0.2.20', true), opts());
    } catch (e) {
      error = e;
    }
    stop();
    expect(error).toBeInstanceOf(Conflict);
    expect((error as Conflict).message).toContain('three.example');
    expect((error as Conflict).message).toContain('nothing was changed');
    expect(Object.keys((error as Conflict).fields ?? {})).toEqual(['three.example']);
    expect(await Promise.all(ZONES.map(seen))).toEqual(before);
    expect(events).toEqual([]);
  });

  it('changes every zone under one batch when the write holds, and tells the DNS after the commit', async () => {
    const before = await Promise.all(ZONES.map(seen));
    const events: string[] = [];
    const stop = t.services.events.subscribe((e) => events.push(e.domain.name));
    const result: BatchResult = await t.services.batches.run(userId, await jobs('192.0.2.30', false), opts());
    stop();
    expect(result.batch).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.zones.map((z) => z.zone)).toEqual(ZONES);
    const after = await Promise.all(ZONES.map(seen));
    expect(after.map((s) => s.www)).toEqual([['192.0.2.30'], ['192.0.2.30'], ['192.0.2.30']]);
    for (const [i, s] of after.entries()) {
      expect(s.serial).toBeGreaterThan(before[i]!.serial);
      expect(Number(s.changes)).toBe(Number(before[i]!.changes) + 1);
    }
    expect(events.sort()).toEqual([...ZONES].sort());
    const batch = await t.request('GET', `/api/v1/batches/${result.batch}`, { token });
    expect(batch.status).toBe(200);
    expect(((await batch.json()) as { zones: Array<{ zone: string }> }).zones.map((z) => z.zone).sort()).toEqual([...ZONES].sort());
  });

  it('reverts a batch in one transaction too: 409 naming the zone changed since, and no zone reverted', async () => {
    const bulk = await t.request('POST', '/api/v1/records/bulk', { token, body: { content: '192.0.2.30', match: 'exact', action: 'replace', replacement: '192.0.2.40' } });
    expect(bulk.status, await bulk.clone().text()).toBe(200);
    const { batch } = (await bulk.json()) as { batch: string };
    const edit = await t.request('PATCH', '/api/v1/domains/two.example/rrsets', {
      token,
      body: { rrsets: [{ name: 'www', record_type: 'A', ttl: '300', changetype: 'REPLACE', records: ['192.0.2.41'] }] },
    });
    expect(edit.status).toBe(200);
    const before = await Promise.all(ZONES.map(seen));
    const res = await t.request('POST', `/api/v1/batches/${batch}/revert`, { token, body: {} });
    expect(res.status).toBe(409);
    expect(JSON.stringify(await res.json())).toContain('two.example');
    expect(await Promise.all(ZONES.map(seen))).toEqual(before);
  });
});
