/**
 * The zone index follows the store: through change events from this process, and through
 * reconciliation for changes another process (another API node) made to the same database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../services';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import type { Store } from '../../store/types';
import { resolve } from '../index/resolve';
import { RCODE, T } from '../index/rrset';
import { IDENTITY } from '../../testing/zone-fixture';
import { ZoneIndex } from '../index/zone-index';
import { syncZones, type ZoneSync } from './zone-sync';

let dir: string;
let storeA: Store;
let storeB: Store;
let nodeA: Services;
let nodeB: Services;
let userId: number;
let sync: ZoneSync;
const index = new ZoneIndex();
const notified: number[] = [];
const defaults = { nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], nsTtl: 3600 };

const rcode = (qname: string, qtype: number = T.A) => resolve(index, { qname, qtype }).rcode;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-sync-'));
  storeA = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  storeB = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  nodeA = createServices(storeA, defaults);
  nodeB = createServices(storeB, defaults);
  await nodeA.accounts.addUser('alice');
  userId = (await storeA.users.byUsername('alice'))!.id;
  await nodeA.zones.create(userId, { name: 'before.test' });
  sync = await syncZones({
    store: storeA,
    events: nodeA.events,
    index,
    identity: IDENTITY,
    hooks: { serialChanged: (z) => notified.push(z.domain.serial_number) },
    reconcileMs: 3_600_000,
    serialSlice: 2,
  });
  await sync.loaded;
});

afterAll(async () => {
  sync?.stop();
  await storeA?.close();
  await storeB?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('zone sync', () => {
  it('loads every zone at start', () => {
    expect(rcode('before.test', T.SOA)).toBe(RCODE.NOERROR);
  });

  it('applies this process’s changes from events, and reports each new serial', async () => {
    await nodeA.zones.create(userId, { name: 'example.test' });
    const { record } = (await nodeA.records.create(userId, 'example.test', { name: 'www', record_type: 'A', content: '192.0.2.1' })).result;
    await sync.settled();
    expect(resolve(index, { qname: 'www.example.test', qtype: T.A }).answer[0]!.data).toEqual(['192.0.2.1']);
    await nodeA.records.remove(userId, 'example.test', record.id);
    await sync.settled();
    expect(rcode('www.example.test')).toBe(RCODE.NXDOMAIN);
    expect(notified.length).toBeGreaterThanOrEqual(3);
    expect(notified.at(-1)).toBe(index.get('example.test')!.domain.serial_number);
  });

  it('picks up another node’s changes when it reconciles, reading the zones a slice at a time', async () => {
    await nodeB.zones.create(userId, { name: 'elsewhere.test' });
    // Three slices of two zones and more: each read where the last one ended.
    for (const name of ['far1.test', 'far2.test', 'far3.test']) await nodeB.zones.create(userId, { name });
    await nodeB.records.create(userId, 'before.test', { name: 'api2', record_type: 'TXT', content: 'from node B' });
    await nodeB.zones.remove(userId, 'example.test');
    expect(rcode('elsewhere.test', T.SOA)).toBe(RCODE.REFUSED);
    await sync.reconcile();
    expect(rcode('elsewhere.test', T.SOA)).toBe(RCODE.NOERROR);
    for (const name of ['far1.test', 'far2.test', 'far3.test']) expect(rcode(name, T.SOA), name).toBe(RCODE.NOERROR);
    expect(rcode('api2.before.test', T.TXT)).toBe(RCODE.NOERROR);
    expect(rcode('www.example.test')).toBe(RCODE.REFUSED);
  });
});
