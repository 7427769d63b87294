/**
 * SQLite opened for reading alone: the DNS thread's store. The connection is read-only in SQLite
 * itself (a write fails with SQLITE_READONLY), it migrates and seals nothing (it checks that the
 * schema is the one this code migrates to), and it makes no file: the database, its -wal and -shm
 * files (which a read-only connection to a WAL database needs) and the key file are there because
 * the main thread's connection opened them first.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database as Schema } from '../schema';
import { requireMigrated, schemaVersion } from '../migrate';
import { createRepos } from '../repos/repos';
import { readRepos } from '../repos/read-repos';
import { keyFromFile, SecretBox } from '../secret-box';
import type { ReaderStore } from '../types';
import { withStatementCache } from './statements';

/** The read-only connection a reader's store runs on; a write through it throws SQLITE_READONLY. */
export function readOnlyDatabase(file: string): Database.Database {
  const raw = new Database(file, { readonly: true, fileMustExist: true });
  // A checkpoint of the writer's may hold the log for a moment: wait for it, never fail at once.
  raw.pragma('busy_timeout = 5000');
  return raw;
}

export async function openSqliteReadStore(file: string, secrets?: SecretBox): Promise<ReaderStore> {
  if (file === ':memory:') throw new Error('an in-memory database is one connection: it cannot be opened a second time for reading');
  const box = secrets ?? new SecretBox(keyFromFile(path.dirname(file), { create: false }));
  const raw = readOnlyDatabase(file);
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  try {
    await requireMigrated(db, 'sqlite');
  } catch (e) {
    await db.destroy();
    throw e;
  }
  const dataVersion = raw.prepare('pragma data_version').pluck();
  return {
    kind: 'sqlite',
    ...readRepos(createRepos(db, 'sqlite', box)),
    version: () => dataVersion.get() as number,
    ping: async () => {
      await sql`select 1`.execute(db);
      return true;
    },
    schemaVersion: () => schemaVersion(db),
    close: () => db.destroy(),
  };
}
