/**
 * The embedded store: SQLite through better-sqlite3, in WAL mode with synchronous=FULL so
 * that a write that answered 2xx survives a crash of the process or the machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database as Schema } from './schema';
import { migrate } from './migrate';
import { createRepos } from './repos';
import type { Store } from './types';

/**
 * kysely prepares every query anew; SQLite's prepare costs more than running a simple
 * query. Queries are parameterized, so their SQL text repeats: keep the statements.
 */
function withStatementCache(raw: Database.Database, max = 500) {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => raw.close(),
    prepare(sqlText: string) {
      let st = cache.get(sqlText);
      if (!st) {
        st = raw.prepare(sqlText);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sqlText, st);
      }
      return st;
    },
  };
}

export async function openSqliteStore(file: string): Promise<Store> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  // The CLI and the server write the same file: wait for the other's lock, never fail at once.
  raw.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  await migrate(db, 'sqlite');
  const repos = createRepos(db, 'sqlite');
  return {
    kind: 'sqlite',
    ...repos,
    // BEGIN IMMEDIATE takes the write lock up front: a transaction that reads and then
    // writes can never fail half-way because another process wrote in between.
    transaction: (fn) =>
      db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(createRepos(conn, 'sqlite'));
          await sql`commit`.execute(conn);
          return result;
        } catch (err) {
          await sql`rollback`.execute(conn);
          throw err;
        }
      }),
    ping: async () => {
      await sql`select 1`.execute(db);
      return true;
    },
    close: async () => {
      await db.destroy();
    },
  };
}
