/**
 * The reader's store (the DNS thread's) is sealed at run time, not only by its type: its objects
 * have no write method, its connection is read-only in the database itself, and opening it
 * migrates and seals nothing. On SQLite always, on PostgreSQL with TEST_DATABASE_URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_SECRETS_KEY } from '../testing/postgres-database';
import { postgresUrl } from '../testing/migration-dbs';
import { appliedMigrations, migrate, MIGRATIONS, SchemaBehindError } from './migrate';
import * as initial from './migrations/0001-initial';
import { openReadStore, openStore } from './open';
import { postgresPool } from './postgres/pg-pool';
import { KEY_FILE } from './secret-box';
import { readOnlyDatabase } from './sqlite/sqlite-read';
import { READ_METHODS, type ReadStore, type Store } from './types';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zd-read-store-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function sqliteWriter(): Promise<{ store: Store; config: { sqlitePath: string; databaseUrl: undefined } }> {
  const config = { sqlitePath: path.join(tempDir(), 'zonedeck.db'), databaseUrl: undefined };
  const store = await openStore(config);
  cleanups.push(() => store.close());
  return { store, config };
}

/**
 * Calls every write method of the writer's repos on `reader` by name: each must be absent (a
 * TypeError, nothing written). Returns how many were called.
 */
function callEveryWrite(writer: Store, reader: ReadStore): number {
  let called = 0;
  for (const [repo, methods] of Object.entries(writer)) {
    if (typeof methods !== 'object' || methods === null || !(repo in READ_METHODS)) continue;
    const reads: readonly string[] = READ_METHODS[repo as keyof typeof READ_METHODS];
    for (const name of Object.keys(methods)) {
      if (reads.includes(name)) continue;
      const face = (reader as unknown as Record<string, Record<string, unknown>>)[repo]!;
      expect(face[name], `${repo}.${name}`).toBeUndefined();
      expect(() => (face[name] as () => unknown)(), `${repo}.${name}`).toThrow(TypeError);
      called++;
    }
  }
  for (const name of ['transaction', 'resealSecrets', 'secrets', 'publish']) expect((reader as unknown as Record<string, unknown>)[name], name).toBeUndefined();
  return called;
}

describe('a read store on SQLite', () => {
  it("has no write method: each one called by name is not there, on the DNS thread's store and on the face the services hand out", async () => {
    const { store, config } = await sqliteWriter();
    const reader = await openReadStore(config);
    cleanups.push(() => reader.close());
    // Every repo's inserts, updates and deletes, the zone writes among them.
    expect(callEveryWrite(store, reader)).toBeGreaterThan(60);
    expect(callEveryWrite(store, store.reads)).toBeGreaterThan(60);
    // What it keeps, it reads: a user the writer made is there.
    await store.users.insert({ username: 'alice', password_hash: 'x', created_at: new Date().toISOString() });
    expect((await reader.users.byUsername('alice'))?.username).toBe('alice');
    expect((await store.reads.users.byUsername('alice'))?.username).toBe('alice');
  });

  it('runs on a connection SQLite itself keeps from writing (SQLITE_READONLY)', async () => {
    const { config } = await sqliteWriter();
    const raw = readOnlyDatabase(config.sqlitePath);
    cleanups.push(() => {
      raw.close();
    });
    expect(raw.prepare('select count(*) as n from kysely_migration').get()).toEqual({ n: MIGRATIONS.length });
    expect(() => raw.prepare("insert into settings (key, value) values ('password-sign-in', 'off')").run()).toThrow(expect.objectContaining({ code: 'SQLITE_READONLY' }));
    expect(() => raw.exec("update tsig_keys set secret = 'x'")).toThrow(expect.objectContaining({ code: 'SQLITE_READONLY' }));
  });

  it('migrates nothing: a database this code has not migrated is refused, naming what it lacks, and left as it was', async () => {
    const file = path.join(tempDir(), 'zonedeck.db');
    const { Kysely, SqliteDialect } = await import('kysely');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    await sql`pragma journal_mode = WAL`.execute(db);
    await migrate(db, 'sqlite', { '0001-initial': initial });
    try {
      const opening = openReadStore({ sqlitePath: file, databaseUrl: undefined, secretsKey: TEST_SECRETS_KEY });
      await expect(opening).rejects.toThrow(SchemaBehindError);
      await expect(opening).rejects.toThrow(`the database has not run migrations ${MIGRATIONS.slice(1).join(', ')}`);
      expect(await appliedMigrations(db, 'sqlite')).toEqual(['0001-initial']);
    } finally {
      await db.destroy();
    }
  });

  it('seals nothing: a secret stored in clear by an older version stays in clear, and reads as it is', async () => {
    const { store, config } = await sqliteWriter();
    await store.tsigKeys.insert({
      user_id: (await store.users.insert({ username: 'bob', password_hash: 'x', created_at: new Date().toISOString() })).id,
      name: 'k1',
      algorithm: 'hmac-sha256',
      secret: 'c2VjcmV0c2VjcmV0c2VjcmV0',
      scope: {},
      created_at: new Date().toISOString(),
    });
    // As a version before sealing left it.
    const rw = new Database(config.sqlitePath);
    cleanups.push(() => {
      rw.close();
    });
    rw.prepare("update tsig_keys set secret = 'c2VjcmV0c2VjcmV0c2VjcmV0' where name = 'k1'").run();
    const reader = await openReadStore(config);
    cleanups.push(() => reader.close());
    expect((await reader.tsigKeys.byName('k1'))?.secret).toBe('c2VjcmV0c2VjcmV0c2VjcmV0');
    expect(rw.prepare("select secret from tsig_keys where name = 'k1'").pluck().get()).toBe('c2VjcmV0c2VjcmV0c2VjcmV0');
  });

  it('makes no file: without the key file the writer made, it is refused and makes none; a database that is not there is not created', async () => {
    const { store, config } = await sqliteWriter();
    const keyFile = path.join(path.dirname(config.sqlitePath), KEY_FILE);
    fs.renameSync(keyFile, `${keyFile}.aside`);
    await expect(openReadStore(config)).rejects.toThrow(`there is no key file ${keyFile}`);
    expect(fs.existsSync(keyFile)).toBe(false);
    fs.renameSync(`${keyFile}.aside`, keyFile);
    expect(store.kind).toBe('sqlite');

    const missing = path.join(tempDir(), 'none.db');
    await expect(openReadStore({ sqlitePath: missing, databaseUrl: undefined, secretsKey: TEST_SECRETS_KEY })).rejects.toThrow();
    expect(fs.existsSync(missing)).toBe(false);
  });
});

describe.skipIf(!postgresUrl)('a read store on PostgreSQL (TEST_DATABASE_URL)', () => {
  async function postgresWriter() {
    const database = await createPostgresDatabase(postgresUrl!);
    cleanups.push(() => database.drop());
    const config = { sqlitePath: ':memory:', databaseUrl: database.url, secretsKey: TEST_SECRETS_KEY };
    const store = await openStore(config);
    cleanups.push(() => store.close());
    return { store, config, url: database.url };
  }

  it('has no write method and reads what the writer wrote', async () => {
    const { store, config } = await postgresWriter();
    const reader = await openReadStore(config);
    cleanups.push(() => reader.close());
    expect(callEveryWrite(store, reader)).toBeGreaterThan(60);
    expect(reader.sharedBuckets).toBeUndefined();
    await store.users.insert({ username: 'alice', password_hash: 'x', created_at: new Date().toISOString() });
    expect((await reader.users.byUsername('alice'))?.username).toBe('alice');
  });

  it('runs on connections PostgreSQL keeps from writing (read-only transactions, SQLSTATE 25006)', async () => {
    const { url } = await postgresWriter();
    const db = postgresPool(url, { readOnly: true });
    cleanups.push(() => db.destroy());
    await expect(sql`insert into settings (key, value) values ('password-sign-in', 'off')`.execute(db)).rejects.toThrow(
      expect.objectContaining({ code: '25006', message: 'cannot execute INSERT in a read-only transaction' }),
    );
    await expect(db.transaction().execute((trx) => sql`update tsig_keys set secret = 'x'`.execute(trx))).rejects.toThrow(expect.objectContaining({ code: '25006' }));
  });

  it('migrates nothing: a database this code has not migrated is refused and left empty', async () => {
    const database = await createPostgresDatabase(postgresUrl!);
    cleanups.push(() => database.drop());
    const opening = openReadStore({ sqlitePath: ':memory:', databaseUrl: database.url, secretsKey: TEST_SECRETS_KEY });
    await expect(opening).rejects.toThrow(SchemaBehindError);
    const db = postgresPool(database.url);
    cleanups.push(() => db.destroy());
    expect(await appliedMigrations(db, 'postgres')).toEqual([]);
  });
});
