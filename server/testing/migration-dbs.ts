/**
 * For migration tests: one check run on a fresh in-memory SQLite database and on a fresh
 * PostgreSQL database (when TEST_DATABASE_URL is set), each destroyed afterwards.
 */
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { it } from 'vitest';
import type { Dialect } from '../store/migrate';
import { createPostgresDatabase } from './postgres-database';

export type MigrationCheck = (db: Kysely<any>, dialect: Dialect) => Promise<void>;

export const postgresUrl = process.env.TEST_DATABASE_URL ?? process.env.ZONEDECK_TEST_POSTGRES;

/** Runs `check` on a new in-memory SQLite database. */
export async function onSqlite(check: MigrationCheck): Promise<void> {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  try {
    await check(db, 'sqlite');
  } finally {
    await db.destroy();
  }
}

/** Runs `check` on a new PostgreSQL database of the test cluster, dropped afterwards. */
export async function onPostgres(check: MigrationCheck): Promise<void> {
  const { url, drop } = await createPostgresDatabase(postgresUrl!);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
  try {
    await check(db, 'postgres');
  } finally {
    await db.destroy();
    await drop();
  }
}

/** The two tests of a migration check: `<what> on SQLite` and `<what> on PostgreSQL` (skipped without a cluster). */
export function onBothStores(what: string, check: MigrationCheck): void {
  it(`${what} on SQLite`, () => onSqlite(check));
  it.skipIf(!postgresUrl)(`${what} on PostgreSQL (TEST_DATABASE_URL)`, () => onPostgres(check));
}
