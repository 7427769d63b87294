/**
 * Migrations on both databases: the pending ones apply all or nothing, so an upgrade that fails
 * halfway leaves the database as the old version left it (the old version starts on it again);
 * a database that ran a migration this code does not know is refused before anything runs.
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onPostgres, onSqlite, postgresUrl } from '../testing/migration-dbs';
import { appliedMigrations, migrate, MIGRATIONS, SchemaTooNewError, schemaVersion, type Dialect, type Step } from './migrate';
import * as initial from './migrations/0001-initial';

const table = (name: string): Step => ({ up: async (db) => void (await db.schema.createTable(name).addColumn('x', 'integer').execute()) });
const broken: Step = {
  async up(db) {
    await db.schema.createTable('half_done').addColumn('x', 'integer').execute();
    throw new Error('disk on fire');
  },
};

async function tables(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  const q =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table'`
      : sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`;
  return (await q.execute(db)).rows.map((r) => r.name);
}

async function check(db: Kysely<any>, dialect: Dialect) {
  await migrate(db, dialect, { '0001-initial': initial });
  expect(await schemaVersion(db)).toBe('0001-initial');

  // Two pending migrations, the second fails: neither is applied, nor recorded.
  await expect(migrate(db, dialect, { '0001-initial': initial, '0002-fine': table('fine'), '0003-broken': broken })).rejects.toThrow(/database migration 0003-broken failed: disk on fire/);
  expect(await tables(db, dialect)).not.toEqual(expect.arrayContaining(['fine']));
  expect(await tables(db, dialect)).not.toEqual(expect.arrayContaining(['half_done']));
  expect(await appliedMigrations(db, dialect)).toEqual(['0001-initial']);

  // Fixed, the upgrade goes through.
  await migrate(db, dialect, { '0001-initial': initial, '0002-fine': table('fine'), '0003-fixed': table('fixed') });
  expect(await schemaVersion(db)).toBe('0003-fixed');

  // This code, which knows neither 0002-fine nor 0003-fixed, refuses the database and runs nothing.
  const refused = migrate(db, dialect, { '0001-initial': initial, '0002-other': table('other') });
  await expect(refused).rejects.toThrow(SchemaTooNewError);
  await expect(refused).rejects.toThrow('this database was written by a newer zonedeck: migrations 0002-fine, 0003-fixed are unknown; upgrade zonedeck or restore a backup');
  expect(await tables(db, dialect)).not.toEqual(expect.arrayContaining(['other']));
}

describe('migrate', () => {
  it('applies pending migrations all or nothing and refuses a newer schema, on SQLite', () => onSqlite(check));

  it('brings a new database to the last migration of the code', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      await migrate(db, 'sqlite');
      expect(await appliedMigrations(db, 'sqlite')).toEqual([...MIGRATIONS]);
      expect(await schemaVersion(db)).toBe(MIGRATIONS.at(-1));
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(!postgresUrl)('and on PostgreSQL (TEST_DATABASE_URL)', () => onPostgres(check));
});
