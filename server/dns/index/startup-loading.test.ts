/**
 * Zones load in the background at start: the zones already loaded answer while the
 * rest load; a zone still loading is SERVFAIL — never answered by its loaded parent with a
 * referral or NXDOMAIN — and /readyz says "loading n of m zones" (503) until all are in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthApp } from '../../api/health';
import { createServices } from '../../services';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import type { ServedRecord, Store } from '../../store/types';
import { resolve } from './resolve';
import { RCODE, T } from './rrset';
import { IDENTITY } from '../../testing/zone-fixture';
import { ZoneIndex } from './zone-index';
import type { LoadProgress } from '../sync/sync-deps';
import { syncZones, type ZoneSync } from '../sync/zone-sync';

let dir: string;
let store: Store;
let sync: ZoneSync | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-loading-'));
  store = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  const services = createServices(store, { nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], nsTtl: 3600 });
  await services.accounts.addUser('alice');
  const userId = (await store.users.byUsername('alice'))!.id;
  // The parent comes before its child by id and by name, whichever order the store lists zones in.
  for (const name of ['aaa.test', 'zz.aaa.test', 'other.test']) {
    await services.zones.create(userId, { name });
    await services.records.create(userId, name, { name: 'www', record_type: 'A', content: '192.0.2.1' });
  }
});

afterAll(async () => {
  sync?.stop();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the start-up load', () => {
  it('answers loaded zones at once, SERVFAIL for the ones still loading (not the parent’s NXDOMAIN), everything once loaded', async () => {
    // The store as it is, but reading zz.aaa.test's records waits until the test lets it go.
    const childId = (await store.domains.byName('zz.aaa.test'))!.id;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const gated: Store = Object.create(store, {
      records: { value: { ...store.records, served: async (id: number, after: ServedRecord | null, n: number) => (id === childId && (await gate), store.records.served(id, after, n)) } },
    });
    const index = new ZoneIndex();
    const progress: LoadProgress[] = [];
    let done = false;
    sync = await syncZones({
      store: gated,
      events: createServices(store, { nameservers: ['ns1.zonedeck.test'], nsTtl: 3600 }).events,
      index,
      identity: IDENTITY,
      hooks: { loading: (p) => progress.push(p) },
      reconcileMs: 3_600_000,
    });
    void sync.loaded.then(() => (done = true));
    const rcode = (qname: string) => resolve(index, { qname, qtype: T.A }).rcode;

    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    expect(progress[0]).toEqual({ loaded: 0, total: 3 });
    expect(rcode('www.aaa.test')).toBe(RCODE.NOERROR);
    expect(resolve(index, { qname: 'www.aaa.test', qtype: T.A }).answer).toHaveLength(1);
    // Loaded, aaa.test would say NXDOMAIN for this name: the child is not its to answer.
    expect(rcode('www.zz.aaa.test')).toBe(RCODE.SERVFAIL);
    expect(rcode('nope.zz.aaa.test')).toBe(RCODE.SERVFAIL);
    // Not hosted at all: REFUSED, as always.
    expect(rcode('www.elsewhere.example')).toBe(RCODE.REFUSED);

    release();
    await sync.loaded;
    expect(progress.at(-1)).toEqual({ loaded: 3, total: 3 });
    expect(rcode('www.zz.aaa.test')).toBe(RCODE.NOERROR);
    expect(rcode('nope.zz.aaa.test')).toBe(RCODE.NXDOMAIN);
    expect(rcode('www.other.test')).toBe(RCODE.NOERROR);
  });

  it('/readyz is 503 "loading n of m zones" while loading, ready after', async () => {
    let p: LoadProgress = { loaded: 1, total: 3 };
    const health = healthApp(store, { dnsProgress: () => p });
    const loading = await health.request('/readyz');
    expect(loading.status).toBe(503);
    expect(await loading.json()).toMatchObject({ status: 'loading', reason: 'loading 1 of 3 zones', zones_loaded: 1, zones_total: 3 });
    p = { loaded: 3, total: 3 };
    const ready = await health.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
  });
});
