/**
 * The catalog zone in the zone index: built from the store at start, built again at a new
 * serial (and announced by NOTIFY) whenever a zone is created or deleted, here or by another
 * process on the same database, and answered like any zone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../services';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import type { Store } from '../../store/types';
import { CATALOG_ID, memberLabel } from './catalog-zone';
import { resolve } from '../index/resolve';
import { RCODE, T, type SoaData } from '../index/rrset';
import type { Zone } from '../index/zone';
import { IDENTITY } from '../../testing/zone-fixture';
import { ZoneIndex } from '../index/zone-index';
import { syncZones, type ZoneSync } from '../sync/zone-sync';

const CATALOG = 'catalog.example.net';
let dir: string;
let store: Store;
let other: Store;
let node: Services;
let elsewhere: Services;
let userId: number;
let sync: ZoneSync;
const index = new ZoneIndex();
const notified: Zone[] = [];
const defaults = { nameservers: ['ns1.zonedeck.test'], nsTtl: 3600, catalogZone: CATALOG };

const serial = () => (index.get(CATALOG)!.soa.data[0] as SoaData).serial;
const ptrs = () => {
  const out: Record<string, string> = {};
  for (const [owner, node] of index.get(CATALOG)!.nodes) {
    const ptr = node.get(T.PTR);
    if (ptr) out[owner] = String(ptr.data[0]);
  }
  return out;
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-catalog-'));
  store = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  other = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  node = createServices(store, defaults);
  elsewhere = createServices(other, defaults);
  userId = (await node.accounts.addUser('alice')).user.id;
  await node.zones.create(userId, { name: 'one.example' });
  sync = await syncZones({ store, events: node.events, index, identity: IDENTITY, hooks: { serialChanged: (z) => notified.push(z) }, reconcileMs: 3_600_000, catalog: CATALOG });
  await sync.loaded;
});

afterAll(async () => {
  sync?.stop();
  await store?.close();
  await other?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the catalog zone (RFC 9432)', () => {
  it('is loaded at start with the store’s serial and a member per zone, and answered like any zone', async () => {
    const one = (await store.domains.byName('one.example'))!;
    expect(index.get(CATALOG)!.id).toBe(CATALOG_ID);
    expect(serial()).toBe(await store.catalog.serial());
    expect(ptrs()).toEqual({ [`${memberLabel(one)}.zones.${CATALOG}`]: 'one.example' });
    expect(resolve(index, { qname: `version.${CATALOG}`, qtype: T.TXT }).answer[0]!.data).toEqual([[new Uint8Array([0x32])]]);
    expect(resolve(index, { qname: CATALOG, qtype: T.NS }).answer[0]!.data).toEqual(['invalid']);
    expect(resolve(index, { qname: `nope.zones.${CATALOG}`, qtype: T.PTR }).rcode).toBe(RCODE.NXDOMAIN);
  });

  it('moves to a new serial, with a NOTIFY, when a zone is created or deleted here', async () => {
    const before = serial();
    await node.zones.create(userId, { name: 'two.example' });
    await sync.settled();
    await sync.settled();
    const created = serial();
    expect(created).toBeGreaterThan(before);
    expect(Object.values(ptrs()).sort()).toEqual(['one.example', 'two.example']);
    expect(notified.at(-1)!.name).toBe(CATALOG);
    await node.zones.remove(userId, 'two.example');
    await sync.settled();
    await sync.settled();
    expect(serial()).toBeGreaterThan(created);
    expect(Object.values(ptrs())).toEqual(['one.example']);
  });

  it('follows zones created and deleted by another process when it reconciles', async () => {
    const before = serial();
    await elsewhere.zones.create(userId, { name: 'three.example' });
    await sync.reconcile();
    expect(serial()).toBeGreaterThan(before);
    expect(Object.values(ptrs()).sort()).toEqual(['one.example', 'three.example']);
    // The periodic check leaves the catalog alone when nothing changed.
    const zone = index.get(CATALOG);
    await sync.reconcile();
    expect(index.get(CATALOG)).toBe(zone);
  });

  it('is refused as a zone name, and so is any name inside it', async () => {
    await expect(node.zones.create(userId, { name: CATALOG })).rejects.toMatchObject({ status: 409 });
    await expect(node.zones.create(userId, { name: `x.zones.${CATALOG}` })).rejects.toMatchObject({ status: 409 });
  });

  it('cannot take a name a hosted zone has, or one above a hosted zone (the start stops and says why)', async () => {
    expect(await node.zones.catalogClash()).toBeNull();
    expect(await createServices(store, { ...defaults, catalogZone: 'one.example' }).zones.catalogClash()).toMatch(/^one\.example is a hosted zone; .*choose another name/);
    expect(await createServices(store, { ...defaults, catalogZone: 'example' }).zones.catalogClash()).toMatch(/is a hosted zone/);
  });
});

describe('messages from other nodes', () => {
  it('reload the whole zone when the change named too many names to list', async () => {
    const { zone } = await elsewhere.records.create(userId, 'one.example', { name: 'far', record_type: 'TXT', content: 'written elsewhere' });
    expect(resolve(index, { qname: 'far.one.example', qtype: T.TXT }).rcode).toBe(RCODE.NXDOMAIN);
    node.events.emit({ kind: 'zone-changed', domain: zone, names: [], keys: false, reload: true });
    await sync.settled();
    expect(resolve(index, { qname: 'far.one.example', qtype: T.TXT }).rcode).toBe(RCODE.NOERROR);
    expect(index.get('one.example')!.domain.serial_number).toBe(zone.serial_number);
  });

  it('never bring back a zone already deleted when a late message about it arrives', async () => {
    const gone = await node.zones.create(userId, { name: 'gone.example' });
    await node.zones.remove(userId, 'gone.example');
    await sync.settled();
    node.events.emit({ kind: 'zone-changed', domain: gone, names: [], keys: false });
    await sync.settled();
    expect(index.get('gone.example')).toBeUndefined();
    expect(Object.values(ptrs())).not.toContain('gone.example');
  });
});
