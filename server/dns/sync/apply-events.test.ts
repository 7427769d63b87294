/**
 * A zone event applied to the index on its own, over a real SQLite store and no server: the
 * events are the ones the services publish, applied here in the order a test chooses.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../services';
import type { ZoneChange } from '../../services/changes/events';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import type { DomainRow, Store } from '../../store/types';
import { IDENTITY } from '../../testing/zone-fixture';
import { resolve } from '../index/resolve';
import { RCODE, T } from '../index/rrset';
import { ZoneIndex } from '../index/zone-index';
import { applyChange } from './apply-events';
import { SyncQueue } from './sync-queue';
import type { SyncDeps } from './sync-deps';

let dir: string;
let store: Store;
let services: Services;
let userId: number;
let index: ZoneIndex;
let deps: SyncDeps;
let events: ZoneChange[];
const added: DomainRow[] = [];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-apply-'));
  store = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  services = createServices(store, { nameservers: ['ns1.zonedeck.test'], nsTtl: 3600 });
  userId = (await services.accounts.addUser('alice')).user.id;
  index = new ZoneIndex();
  events = [];
  added.length = 0;
  services.events.subscribe((change) => events.push(change));
  deps = { store, index, identity: IDENTITY, hooks: { zoneAdded: (d) => added.push(d) } };
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const a = (qname: string) => resolve(index, { qname, qtype: T.A });

describe('applying a zone event', () => {
  it('loads a zone new to the index, says the list of zones changed, and reads a change set’s names back from the store', async () => {
    await services.zones.create(userId, { name: 'new.test' });
    expect(await applyChange(deps, events.at(-1)!)).toBe(true);
    expect(added.map((d) => d.name)).toEqual(['new.test']);
    await services.records.create(userId, 'new.test', { name: 'www', record_type: 'A', content: '192.0.2.1' });
    expect(await applyChange(deps, events.at(-1)!)).toBe(false);
    expect(a('www.new.test').answer[0]!.data).toEqual(['192.0.2.1']);
    expect(index.get('new.test')!.domain.serial_number).toBe((await store.domains.byName('new.test'))!.serial_number);
  });

  it('never steps a serial back for an event that comes after a newer one, but serves the names as stored', async () => {
    await services.zones.create(userId, { name: 'late.test' });
    await applyChange(deps, events.at(-1)!);
    await services.records.create(userId, 'late.test', { name: 'www', record_type: 'A', content: '192.0.2.1' });
    const older = events.at(-1)!;
    await services.records.create(userId, 'late.test', { name: 'www', record_type: 'A', content: '192.0.2.2' });
    await applyChange(deps, events.at(-1)!);
    const newest = index.get('late.test')!.domain.serial_number;
    await applyChange(deps, older);
    expect(index.get('late.test')!.domain.serial_number).toBe(newest);
    expect(a('www.late.test').answer[0]!.data.map(String).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
  });

  it('removes a deleted zone only when the index holds that zone, not one made again under its name', async () => {
    await services.zones.create(userId, { name: 'again.test' });
    await services.zones.remove(userId, 'again.test');
    const deleted = events.at(-1)!;
    await services.zones.create(userId, { name: 'again.test' });
    // The first zone's creation, applied now, finds its row gone: nothing to load.
    expect(await applyChange(deps, events[0]!)).toBe(false);
    expect(index.get('again.test')).toBeUndefined();
    await applyChange(deps, events.at(-1)!);
    expect(await applyChange(deps, deleted)).toBe(false);
    expect(index.get('again.test')).toBeDefined();
    await services.zones.remove(userId, 'again.test');
    expect(await applyChange(deps, events.at(-1)!)).toBe(true);
    expect(a('again.test').rcode).toBe(RCODE.REFUSED);
  });
});

describe('the sync queue', () => {
  it('runs tasks one after another in order, and goes on after one fails', async () => {
    const errors: unknown[] = [];
    const queue = new SyncQueue((err) => errors.push(err));
    const ran: number[] = [];
    const slow = () => new Promise((r) => setTimeout(r, 20));
    void queue.push(async () => {
      await slow();
      ran.push(1);
    });
    void queue.push(async () => {
      throw new Error('broken');
    });
    void queue.push(async () => void ran.push(3));
    await queue.settled();
    expect(ran).toEqual([1, 3]);
    expect(errors).toHaveLength(1);
  });
});
