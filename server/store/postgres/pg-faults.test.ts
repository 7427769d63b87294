/**
 * The PostgreSQL store when its connections die under it, as a restart does to them (the server
 * ends each session with 57P01, "terminating connection due to administrator command", which is
 * what pg_terminate_backend sends): a transaction whose session ends between two statements fails
 * with StoreUnavailable and the process lives on (an 'error' event with no listener would throw);
 * a COMMIT cut short says the change may or may not be stored, never that it was; a database that
 * refuses connections is StoreUnavailable too; and the store works again on new connections.
 * Needs TEST_DATABASE_URL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { StoreUnavailable } from '../../core/errors';
import { testDatabaseUrl } from '../../testing/cluster';
import { createPostgresDatabase, TEST_SECRETS_KEY, type TestDatabase } from '../../testing/postgres-database';
import { waitUntil } from '../../testing/wait-until';
import { keyFromBase64, SecretBox } from '../secret-box';
import type { Store } from '../types';
import { postgresPool } from './pg-pool';
import { openPostgresStore } from './postgres';

let db: TestDatabase;
let store: Store;
let admin: pg.Client;

beforeAll(async () => {
  db = await createPostgresDatabase(testDatabaseUrl('the PostgreSQL fault tests'));
  store = await openPostgresStore(db.url, new SecretBox(keyFromBase64(TEST_SECRETS_KEY)));
  admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await store?.close();
  await db?.drop();
});

/** Ends the store's sessions in `state` (pg_stat_activity) as a restart would; how many it ended. */
async function terminate(where: string): Promise<number> {
  const { rows } = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and ${where}`);
  return rows.length;
}

const newUser = (username: string) => ({ username, password_hash: 'x', created_at: new Date().toISOString() });

describe('the PostgreSQL store when its connections die', () => {
  it('fails a transaction whose session ended between two statements with StoreUnavailable, and writes again after', async () => {
    let resume!: () => void;
    const paused = new Promise<void>((r) => (resume = r));
    let inside!: () => void;
    const began = new Promise<void>((r) => (inside = r));
    const tx = store.transaction(async (t) => {
      await t.users.insert(newUser('before-the-restart'));
      inside();
      await paused;
      return t.users.count();
    });
    await began;
    await waitUntil(
      'the transaction waits, idle in its session',
      async () => (await admin.query(`select 1 from pg_stat_activity where datname = current_database() and state = 'idle in transaction'`)).rowCount === 1,
    );
    expect(await terminate(`state = 'idle in transaction'`)).toBe(1);
    // The pool's client hears of it while checked out; let that event come before the next statement.
    await new Promise((r) => setTimeout(r, 100));
    resume();
    const err = await tx.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailable);
    expect((err as StoreUnavailable).code).toBe('store_unavailable');
    expect((err as StoreUnavailable).headers).toEqual({ 'Retry-After': '5' });
    expect(await store.users.byUsername('before-the-restart')).toBeUndefined();
    // Idle connections ended too: the pool drops them as it hears of it, and opens new ones.
    await terminate('true');
    await waitUntil('the store answers again', () =>
      store.users.count().then(
        () => true,
        () => false,
      ),
    );
    await store.users.insert(newUser('after-the-restart'));
    expect(await store.users.byUsername('after-the-restart')).toBeDefined();
  });

  it('answers a COMMIT cut short as maybe stored, never as stored', async () => {
    // A deferred trigger keeps the COMMIT running long enough to end its session under it.
    await admin.query(`create function slow_commit() returns trigger language plpgsql as $$ begin perform pg_sleep(30); return null; end $$`);
    await admin.query(`create constraint trigger slow_commit after insert on users deferrable initially deferred for each row when (new.username = 'slow') execute function slow_commit()`);
    try {
      const tx = store.transaction((t) => t.users.insert(newUser('slow')));
      await waitUntil('the COMMIT runs', async () => (await admin.query(`select 1 from pg_stat_activity where datname = current_database() and query = 'commit' and state = 'active'`)).rowCount === 1);
      expect(await terminate(`query = 'commit'`)).toBe(1);
      const err = await tx.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailable);
      expect((err as StoreUnavailable).message).toMatch(/may or may not be stored/);
    } finally {
      await admin.query('drop trigger slow_commit on users; drop function slow_commit()');
    }
  });

  it('answers StoreUnavailable when the database refuses connections', async () => {
    // A port nobody listens on: connecting is refused at once, as while PostgreSQL is down.
    const url = new URL(db.url);
    url.port = '1';
    const gone = postgresPool(url.toString());
    try {
      await expect(sql`select 1`.execute(gone)).rejects.toBeInstanceOf(StoreUnavailable);
    } finally {
      await gone.destroy();
    }
  });
});
