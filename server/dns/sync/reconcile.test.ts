/**
 * The reconcile on its own, over a real SQLite store and no server: it brings the index to the
 * store's zones and serials, whatever events were missed, and leaves alone what already matches.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../services';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import type { Store } from '../../store/types';
import { IDENTITY } from '../../testing/zone-fixture';
import { resolve } from '../index/resolve';
import { RCODE, T } from '../index/rrset';
import type { Zone } from '../index/zone';
import { ZoneIndex } from '../index/zone-index';
import { reconcile } from './reconcile';
import type { SyncDeps } from './sync-deps';

const CATALOG = 'catalog.example.net';
let dir: string;
let store: Store;
let services: Services;
let userId: number;
let index: ZoneIndex;
let notified: Zone[];
let deps: SyncDeps;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-reconcile-'));
  store = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  // No one follows these services' events: the index learns only what the reconcile reads.
  services = createServices(store, { nameservers: ['ns1.zonedeck.test'], nsTtl: 3600, catalogZone: CATALOG });
  userId = (await services.accounts.addUser('alice')).user.id;
  index = new ZoneIndex();
  notified = [];
  deps = { store, index, identity: IDENTITY, hooks: { serialChanged: (z) => notified.push(z) }, catalog: CATALOG, serialSlice: 2 };
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const answer = (qname: string, qtype: number) => resolve(index, { qname, qtype });
/** The zones the catalog lists (its PTRs). */
const members = () => [...index.get(CATALOG)!.nodes.values()].flatMap((node) => node.get(T.PTR)?.data.map(String) ?? []).sort();

describe('reconcile', () => {
  it('loads every zone the store holds into an empty index, and the catalog listing them', async () => {
    for (const name of ['a.test', 'b.test', 'c.test']) await services.zones.create(userId, { name });
    await reconcile(deps);
    expect([...index.all()].map((z) => z.name).sort()).toEqual(['a.test', 'b.test', 'c.test', CATALOG]);
    expect(answer('b.test', T.SOA).rcode).toBe(RCODE.NOERROR);
    expect(members()).toEqual(['a.test', 'b.test', 'c.test']);
  });

  it('leaves a zone at the serial the store has untouched, and reloads one whose serial moved', async () => {
    await services.zones.create(userId, { name: 'same.test' });
    await services.zones.create(userId, { name: 'moved.test' });
    await reconcile(deps);
    const same = index.get('same.test');
    const before = index.get('moved.test')!.domain.serial_number;
    await services.records.create(userId, 'moved.test', { name: 'www', record_type: 'A', content: '192.0.2.7' });
    notified.length = 0;
    let reloads = 0;
    await reconcile(deps, () => reloads++);
    // The unchanged zone is the very object that was served: not read again, not announced.
    expect(index.get('same.test')).toBe(same);
    expect(reloads).toBe(1);
    expect(notified.map((z) => z.name)).toEqual(['moved.test']);
    expect(index.get('moved.test')!.domain.serial_number).not.toBe(before);
    expect(answer('www.moved.test', T.A).answer[0]!.data).toEqual(['192.0.2.7']);
  });

  it('removes a zone the store no longer holds, and takes a zone made again under its name by its new id', async () => {
    await services.zones.create(userId, { name: 'gone.test' });
    await services.zones.create(userId, { name: 'again.test' });
    await reconcile(deps);
    const oldId = index.get('again.test')!.id;
    await services.zones.remove(userId, 'gone.test');
    await services.zones.remove(userId, 'again.test');
    await services.zones.create(userId, { name: 'again.test' });
    await reconcile(deps);
    expect(index.get('gone.test')).toBeUndefined();
    expect(answer('www.gone.test', T.A).rcode).toBe(RCODE.REFUSED);
    expect(index.get('again.test')!.id).not.toBe(oldId);
  });

  it('builds the catalog again only when its serial or members changed', async () => {
    await services.zones.create(userId, { name: 'one.test' });
    await reconcile(deps);
    const catalog = index.get(CATALOG);
    await reconcile(deps);
    expect(index.get(CATALOG)).toBe(catalog);
    await services.zones.create(userId, { name: 'two.test' });
    notified.length = 0;
    await reconcile(deps);
    expect(index.get(CATALOG)).not.toBe(catalog);
    expect(members()).toEqual(['one.test', 'two.test']);
    expect(notified.map((z) => z.name).sort()).toEqual([CATALOG, 'two.test']);
  });
});
