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
import type { Repos, Store } from './types';

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

interface Job {
  fn: (tx: Repos) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Most transactions one commit (one fsync) carries. */
const MAX_BATCH = 256;

/**
 * Group commit. With synchronous=FULL every COMMIT waits for an fsync (~1–3 ms here), which
 * caps one-at-a-time writes at a few hundred a second. Transactions that arrive together run
 * one after another inside one BEGIN IMMEDIATE … COMMIT, each in a SAVEPOINT of its own: one
 * that fails is rolled back alone and answered with its error; the others are answered only
 * once the shared COMMIT has reached the disk, so every acknowledged write is durable. When the
 * COMMIT itself fails, every transaction of the batch fails (none was acknowledged).
 */
function groupCommit(db: Kysely<Schema>): Store['transaction'] {
  const queue: Job[] = [];
  let running = false;

  async function batch(): Promise<void> {
    await db.connection().execute(async (conn) => {
      const repos = createRepos(conn, 'sqlite');
      const done: { job: Job; ok: boolean; value: unknown }[] = [];
      try {
        await sql`begin immediate`.execute(conn);
        // Jobs queued while earlier ones ran join this batch too.
        while (queue.length > 0 && done.length < MAX_BATCH) {
          const job = queue.shift()!;
          await sql`savepoint tx`.execute(conn);
          try {
            const value = await job.fn(repos);
            await sql`release tx`.execute(conn);
            done.push({ job, ok: true, value });
          } catch (err) {
            await sql`rollback to tx`.execute(conn);
            await sql`release tx`.execute(conn);
            done.push({ job, ok: false, value: err });
          }
        }
        await sql`commit`.execute(conn);
      } catch (err) {
        // The database itself failed (busy past busy_timeout, disk full…): nothing of this batch
        // is stored, and every job in it, or waiting for it, gets the error.
        await sql`rollback`.execute(conn).catch(() => {});
        for (const d of done) d.job.reject(err);
        for (const job of queue.splice(0)) job.reject(err);
        return;
      }
      for (const d of done) (d.ok ? d.job.resolve : d.job.reject)(d.value);
    });
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) await batch();
    } catch (err) {
      for (const job of queue.splice(0)) job.reject(err);
    } finally {
      running = false;
    }
  }

  return <T>(fn: (tx: Repos) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      // On the next turn, so that the requests of this turn of the event loop share one commit.
      if (!running) {
        running = true;
        setImmediate(() => void drain());
      }
    });
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
  const dataVersion = raw.prepare('pragma data_version').pluck();
  return {
    kind: 'sqlite',
    ...repos,
    transaction: groupCommit(db),
    // SQLite's data_version changes when another connection commits (not for this one's own writes).
    version: () => dataVersion.get() as number,
    ping: async () => {
      await sql`select 1`.execute(db);
      return true;
    },
    close: async () => {
      await db.destroy();
    },
  };
}
