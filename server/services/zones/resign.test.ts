/** Secondaries get fresh signatures: a signed zone unchanged for a week gets a new serial (and a NOTIFY). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ZoneChange } from '../changes/events';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { Store } from '../../store/types';
import { createChangeSets } from '../changes/change-sets';
import { refreshSignedZones } from './resign';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
});
afterEach(() => t.close());

const DAY = 86_400_000;

async function zone(name: string, dnssec: boolean, ageDays: number) {
  await t.request('POST', '/api/v1/domains', { body: { name, dnssec_enabled: dnssec } });
  const row = (await t.services.store.domains.byName(name))!;
  return t.forge.domains.update(row, { updated_at: new Date(Date.now() - ageDays * DAY).toISOString() });
}

describe('signature refresh for secondaries', () => {
  it('bumps the serial of signed zones unchanged for a week, and only those', async () => {
    const stale = await zone('stale.example', true, 8);
    await zone('fresh.example', true, 2);
    await zone('unsigned.example', false, 30);
    const seen: ZoneChange[] = [];
    t.services.events.subscribe((c) => seen.push(c));

    const bumped = await refreshSignedZones(t.services.store, t.services.changes);
    expect(bumped.map((z) => z.name)).toEqual(['stale.example']);
    expect(bumped[0]!.serial_number).toBeGreaterThan(stale.serial_number);
    expect(seen).toEqual([{ kind: 'zone-changed', domain: bumped[0], names: [], keys: false }]);
    const api = await (await t.request('GET', '/api/v1/domains/stale.example')).json();
    expect(api.serial_number).toBe(bumped[0]!.serial_number);
    // Done once: the zone is now fresh.
    expect(await refreshSignedZones(t.services.store, t.services.changes)).toEqual([]);
  });

  it('a zone that fails is reported by name, and the others are still bumped', async () => {
    await zone('broken.example', true, 8);
    await zone('fine.example', true, 8);
    const store = t.forge;
    // The store as it is, but the write of one zone's change set fails (a disk error, a lost connection).
    const failing: Store = Object.create(store, {
      transaction: {
        value: <T>(run: Parameters<Store['transaction']>[0]) =>
          store.transaction((tx) =>
            run(
              Object.create(tx, {
                domains: { value: { ...tx.domains, lock: async (d: { name: string }) => (d.name === 'broken.example' ? Promise.reject(new Error('disk I/O error')) : tx.domains.lock(d as never)) } },
              }),
            ),
          ) as Promise<T>,
      },
    });
    const reported: Array<[string, string]> = [];
    const bumped = await refreshSignedZones(failing, createChangeSets(failing, t.services.events, { maxRecords: 1000 }), new Date(), (name, err) => reported.push([name, (err as Error).message]));
    expect(bumped.map((z) => z.name)).toEqual(['fine.example']);
    expect(reported).toEqual([['broken.example', 'disk I/O error']]);
    // The next run, with the store healthy again, bumps it.
    expect((await refreshSignedZones(store, t.services.changes)).map((z) => z.name)).toEqual(['broken.example']);
  });
});
