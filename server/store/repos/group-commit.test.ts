/**
 * Group commit on SQLite: transactions that arrive together share one COMMIT, yet each stays
 * atomic and is refused alone; a failed batch commit fails every transaction of it; and none
 * is answered before an fsync of the write-ahead log that began after its COMMIT has finished.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../sqlite/sqlite';
import type { Store } from '../types';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-gc-'));
  store = await openSqliteStore(path.join(dir, 'zonedeck.db'));
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const at = '2026-11-23T00:00:00.000Z';
const addUser = (tx: Pick<Store, 'users'>, name: string) => tx.users.insert({ username: name, password_hash: 'x', created_at: at });

describe('group commit', () => {
  it('runs concurrent transactions together; the one that fails is rolled back alone', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        store.transaction(async (tx) => {
          await addUser(tx, `u${i}`);
          await addUser(tx, `v${i}`);
          if (i === 17) throw new Error('refused');
          return i;
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([{ status: 'rejected', reason: new Error('refused') }]);
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).toHaveLength(49);
    expect(await store.users.count()).toBe(98);
    expect(await store.users.byUsername('u17')).toBeUndefined();
    expect(await store.users.byUsername('v18')).toBeDefined();
  });

  it('keeps a constraint violation to its own transaction', async () => {
    await store.transaction((tx) => addUser(tx, 'taken'));
    const [dup, ok] = await Promise.allSettled([store.transaction((tx) => addUser(tx, 'taken')), store.transaction((tx) => addUser(tx, 'free'))]);
    expect(dup.status).toBe('rejected');
    expect(ok.status).toBe('fulfilled');
    expect(await store.users.count()).toBe(2);
  });

  it('a transaction sees the writes of the ones before it in its batch, as in serial order', async () => {
    const [, seen] = await Promise.all([store.transaction((tx) => addUser(tx, 'first')), store.transaction(async (tx) => (await tx.users.byUsername('first'))?.username)]);
    expect(seen).toBe('first');
  });

  it('a zone read by name in a batch is the zone as stored: after the writes before it, and not after one rolled back', async () => {
    const user = await addUser(store, 'owner');
    await store.transaction((tx) =>
      tx.domains.insert({
        user_id: user.id,
        name: 'example.com',
        serial_number: 1,
        refresh_interval: 1,
        retry_interval: 1,
        expire_interval: 1,
        minimum_ttl: 1,
        dnssec_enabled: false,
        delegated: false,
        created_at: at,
        updated_at: at,
      }),
    );
    const bump = (serial: number, fail = false) =>
      store.transaction(async (tx) => {
        const zone = (await tx.domains.byName('example.com'))!;
        const seen = zone.serial_number;
        await tx.domains.update(zone, { serial_number: serial });
        if (fail) throw new Error('refused');
        return seen;
      });
    const seenBy = async (tx: Pick<Store, 'domains'>) => (await tx.domains.byName('example.com'))!.serial_number;
    // One batch: a write, a write rolled back, a read, a write, a read, a deletion, a read.
    const results = await Promise.allSettled([
      bump(2),
      bump(99, true),
      store.transaction(seenBy),
      bump(3),
      store.transaction(seenBy),
      store.transaction(async (tx) => tx.domains.delete((await tx.domains.byName('example.com'))!.id)),
      store.transaction((tx) => tx.domains.byName('example.com')),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'refused', 2, 2, 3, true, undefined]);
  });

  it('answers a transaction only once an fsync of the log begun after its commit has finished, even while the next batch commits', async () => {
    const events: string[] = [];
    const realFsync = fs.fsync;
    let other: Promise<void> | undefined;
    // Calls the real fsync, noting when it starts and ends; the first one is slowed so that a second batch commits meanwhile.
    const spy = vi.spyOn(fs, 'fsync').mockImplementation(((fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      const first = events.filter((e) => e === 'fsync start').length === 0;
      events.push('fsync start');
      if (first) other = store.transaction(async (tx) => void (await addUser(tx, 'b'), events.push('b committed'))).then(() => void events.push('b answered'));
      realFsync(fd, (err) => setTimeout(() => (events.push('fsync done'), done(err)), first ? 50 : 0));
    }) as typeof fs.fsync);
    try {
      await store.transaction(async (tx) => void (await addUser(tx, 'a'), events.push('a committed')));
      events.push('a answered');
      await other;
    } finally {
      spy.mockRestore();
    }
    expect(events).toEqual(['a committed', 'fsync start', 'b committed', 'fsync done', 'a answered', 'fsync start', 'fsync done', 'b answered']);
    expect(await store.users.count()).toBe(2);
  });
});
