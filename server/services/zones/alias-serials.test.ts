/**
 * New ALIAS addresses reach secondaries through a new serial: a change set of source `alias`,
 * at most one per interval per zone, the one that falls inside it made when the interval ends.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAliasSerials } from './alias-serials';
import { createChangeSets } from '../changes/change-sets';
import { eventually } from '../../testing/test-server';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ RESOLVER: '127.0.0.1:53' });
  await t.user('alice');
  await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } });
  await t.request('POST', '/api/v1/domains/example.com/records', { body: { name: '@', record_type: 'ALIAS', content: 'lb.example.net' } });
});
afterEach(() => t.close());

const zone = async () => (await t.services.store.domains.byName('example.com'))!;
const changes = async () => (await (await t.request('GET', '/api/v1/domains/example.com/changes')).json()) as { source: string; comment: string }[];

describe('ALIAS serials', () => {
  it('bump a zone whose addresses changed, once per interval', async () => {
    const serials = createAliasSerials(t.services.changes, { minIntervalMs: 300 });
    try {
      const before = await zone();
      // The zone changed just now (the ALIAS was added): the bump waits for the interval to pass.
      serials.changed(before.id);
      serials.changed(before.id);
      await new Promise((r) => setTimeout(r, 50));
      expect((await zone()).serial_number).toBe(before.serial_number);
      expect(await eventually(async () => (await zone()).serial_number > before.serial_number)).toBe(true);
      const [latest, previous] = await changes();
      expect(latest).toMatchObject({ source: 'alias', comment: expect.stringMatching(/ALIAS target’s addresses changed/) });
      expect(previous!.source).toBe('api');
      // Two signals within one interval made one change set.
      await new Promise((r) => setTimeout(r, 400));
      expect((await changes()).filter((c) => c.source === 'alias')).toHaveLength(1);
    } finally {
      serials.close();
    }
  });
});

describe('a failing bump', () => {
  it('is reported with its zone and tried again, with a doubling wait, until it succeeds', async () => {
    const store = t.forge;
    let failing = 2;
    // The store as it is, but the first two bumps fail (a lost connection, a full disk).
    const flaky = Object.create(store, {
      transaction: {
        value: <T>(run: Parameters<typeof store.transaction>[0]) => (failing-- > 0 ? Promise.reject(new Error('database is locked')) : (store.transaction(run) as Promise<T>)),
      },
    });
    const reported: Array<[string, number, number]> = [];
    const serials = createAliasSerials(createChangeSets(flaky, t.services.events, { maxRecords: 1000, aliasResolver: true }), {
      minIntervalMs: 0,
      retryMs: 50,
      onError: (err, zoneId, wait) => reported.push([(err as Error).message, zoneId, wait]),
    });
    try {
      const before = await zone();
      serials.changed(before.id);
      expect(await eventually(async () => (await zone()).serial_number > before.serial_number)).toBe(true);
      expect(reported).toEqual([
        ['database is locked', before.id, 50],
        ['database is locked', before.id, 100],
      ]);
      expect((await changes())[0]).toMatchObject({ source: 'alias' });
    } finally {
      serials.close();
    }
  });
});
