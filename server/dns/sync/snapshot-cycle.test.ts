/**
 * The snapshot's refresh on its own, over a real SQLite store and no server: it files anew only
 * the zones whose records changed since the file was written, writes nothing when none did, runs
 * on the timer only once a zone changed, and tries again after a failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../services';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import type { Store } from '../../store/types';
import { IDENTITY } from '../../testing/zone-fixture';
import { SNAPSHOT_FILE, SnapshotReader } from '../index/index-snapshot';
import { ZoneIndex } from '../index/zone-index';
import { SnapshotCycle } from './snapshot-cycle';
import type { SnapshotRefresh, SyncDeps } from './sync-deps';

const ZONES = ['one.test', 'two.test', 'three.test'];
let dir: string;
let file: string;
let store: Store;
let services: Services;
let userId: number;
let deps: SyncDeps;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-snapshot-cycle-'));
  file = path.join(dir, SNAPSHOT_FILE);
  store = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  services = createServices(store, { nameservers: ['ns1.zonedeck.test'], nsTtl: 3600 });
  userId = (await services.accounts.addUser('alice')).user.id;
  for (const name of ZONES) await services.zones.create(userId, { name });
  deps = { store, index: new ZoneIndex(), identity: IDENTITY, hooks: {} };
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether the file on disk holds the zone as the store has its records now. */
async function filedAsStored(name: string): Promise<boolean> {
  const domain = (await store.domains.byName(name))!;
  const tag = (await store.records.contentTags()).get(domain.id);
  const reader = SnapshotReader.open(file, await store.schemaVersion());
  if (typeof reader === 'string') return false;
  const found = reader.find(domain.id, domain.name, tag) !== undefined;
  reader.close();
  return found;
}

describe('the snapshot cycle', () => {
  it('files every zone when there is no file, then only the zones changed since', async () => {
    const cycle = new SnapshotCycle(deps, file, Promise.resolve());
    expect(await cycle.refresh()).toEqual({ kept: 0, read: 3, written: true });
    for (const name of ZONES) expect(await filedAsStored(name), name).toBe(true);
    // Nothing changed: the file stays as it is.
    const before = fs.statSync(file).mtimeMs;
    expect(await cycle.refresh()).toEqual({ kept: 3, read: 0, written: false });
    expect(fs.statSync(file).mtimeMs).toBe(before);

    await services.records.create(userId, 'two.test', { name: 'www', record_type: 'A', content: '192.0.2.2' });
    expect(await filedAsStored('two.test')).toBe(false);
    expect(await cycle.refresh()).toEqual({ kept: 2, read: 1, written: true });
    for (const name of ZONES) expect(await filedAsStored(name), name).toBe(true);
  });

  it('joins a refresh already running instead of starting a second one', async () => {
    const cycle = new SnapshotCycle(deps, file, Promise.resolve());
    const first = cycle.refresh();
    expect(cycle.refresh()).toBe(first);
    await first;
    const next = cycle.refresh();
    expect(next).not.toBe(first);
    await next;
  });

  it('waits for the start’s own snapshot before it writes', async () => {
    let startupWritten!: () => void;
    const cycle = new SnapshotCycle(deps, file, new Promise<void>((r) => (startupWritten = r)));
    const refresh = cycle.refresh();
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(file)).toBe(false);
    startupWritten();
    expect((await refresh).written).toBe(true);
  });

  it('runs on its timer only once a zone changed, and tells the hooks how it went', async () => {
    const refreshed: SnapshotRefresh[] = [];
    let told!: () => void;
    const done = new Promise<void>((r) => (told = r));
    deps.hooks = { snapshotRefreshed: (r) => (refreshed.push(r), told()) };
    const cycle = new SnapshotCycle(deps, file, Promise.resolve());
    cycle.tick();
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(file)).toBe(false);
    cycle.changed();
    cycle.tick();
    await done;
    expect(refreshed).toEqual([{ kept: 0, read: 3, written: true }]);
  });

  it('tries a failed refresh again at the next turn of the timer', async () => {
    const errors: string[] = [];
    let failed: () => void = () => {};
    deps.hooks = { snapshotFault: (fault) => (errors.push(fault), failed()) };
    // A directory that is not there: the new file cannot be made.
    const cycle = new SnapshotCycle(deps, path.join(dir, 'missing', SNAPSHOT_FILE), Promise.resolve());
    cycle.changed();
    for (let turn = 1; turn <= 2; turn++) {
      const fails = new Promise<void>((r) => (failed = r));
      cycle.tick();
      await fails;
      expect(errors).toEqual(Array(turn).fill('write_failed'));
    }
  });
});
