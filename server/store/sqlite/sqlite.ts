/**
 * The embedded store: SQLite through better-sqlite3, in WAL mode with synchronous=FULL so
 * that a write that answered 2xx survives a crash of the process or the machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database as Schema } from '../schema';
import { migrate, schemaVersion } from '../migrate';
import type { Runner } from '../repos/prepared';
import { createRepos } from '../repos/repos';
import { readRepos } from '../repos/read-repos';
import { withStatementCache, type Statements } from './statements';
import { withFaults } from '../fault-dialect';
import { DiskState } from './disk-state';
import { isNoSpace, storeFault } from '../faults';
import { InsufficientStorage } from '../../core/errors';
import type { DomainRow, Repos, Store } from '../types';
import { randomBytes } from 'node:crypto';
import { keyFromFile, KEY_FILE, resealSecrets, restrictDataDir, sealStoredSecrets, SecretBox } from '../secret-box';

/** Prepared queries (prepared.ts) run on better-sqlite3 itself: no driver, no connection queue. */
function sqliteRunner(statements: Statements): Runner {
  return {
    rows: async (sqlText, params) => {
      const st = statements.prepare(sqlText);
      return st.reader ? st.all(params) : (st.run(params), []);
    },
    run: async (sqlText, params) => statements.prepare(sqlText).run(params).changes,
    insert: async (sqlText, params) => Number(statements.prepare(sqlText).run(params).lastInsertRowid),
  };
}

interface Job {
  fn: (tx: Repos) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** A commit whose fsync found the disk full. */
const UNSYNCED = 'the disk under the database is full: this change may not be stored; read it back before sending it again once there is space';

/** Most transactions one commit (one fsync) carries. */
const MAX_BATCH = 256;

/**
 * Group commit. Every COMMIT that must reach the disk costs an fsync (~1–3 ms here), which caps
 * one-at-a-time writes at a few hundred a second. Transactions that arrive together run one
 * after another inside one BEGIN IMMEDIATE … COMMIT, each in a SAVEPOINT of its own: one that
 * fails is rolled back alone and answered with its error; the others are answered only once the
 * shared COMMIT is on disk (`durable`), so every acknowledged write survives a crash. When the
 * COMMIT itself fails, every transaction of the batch fails (none was acknowledged).
 */
function groupCommit(db: Kysely<Schema>, statements: Statements, durable: () => Promise<void>, box: SecretBox, disk: DiskState): Store['transaction'] {
  const queue: Job[] = [];
  let running = false;
  // Inside a batch the transaction holds the one connection, so its queries may run on the handle
  // directly; outside one they queue for the connection through kysely (never inside a batch).
  const runner = sqliteRunner(statements);
  const exec = (sqlText: string) => statements.prepare(sqlText).run();

  async function batch(): Promise<void> {
    // Holding kysely's one connection keeps queries from outside the batch out of its transaction.
    const done = await db.connection().execute(async (conn) => {
      // Zones read by name stay known for the batch: it holds the write lock, so only its own jobs change them.
      const zones = new Map<string, DomainRow>();
      const repos = createRepos(conn, 'sqlite', box, runner, zones);
      const done: { job: Job; ok: boolean; value: unknown }[] = [];
      try {
        // The COMMIT below writes the WAL without waiting for the disk; `durable` waits for it instead.
        exec('pragma synchronous = NORMAL');
        exec('begin immediate');
        // Jobs queued while earlier ones ran join this batch too.
        while (queue.length > 0 && done.length < MAX_BATCH) {
          const job = queue.shift()!;
          exec('savepoint tx');
          try {
            const value = await job.fn(repos);
            exec('release tx');
            done.push({ job, ok: true, value });
          } catch (err) {
            zones.clear();
            done.push({ job, ok: false, value: err });
            try {
              exec('rollback to tx');
              exec('release tx');
            } catch {
              // SQLite rolled the whole transaction back itself (a full disk does): the batch fails with this job's error.
              throw err;
            }
          }
        }
        exec('commit');
        exec('pragma synchronous = FULL');
      } catch (err) {
        // The database itself failed (busy past busy_timeout, disk full…): nothing of this batch
        // is stored, and every job in it, or waiting for it, gets the error.
        try {
          exec('rollback');
        } catch {
          /* no transaction left to roll back */
        }
        exec('pragma synchronous = FULL');
        const fault = storeFault(err);
        disk.saw(fault);
        for (const d of done) d.job.reject(fault);
        for (const job of queue.splice(0)) job.reject(fault);
        return [];
      }
      return done;
    });
    if (done.length === 0) return;
    // The next batch may run while this one's commit goes to the disk; its answers wait for it.
    durable().then(
      () => {
        disk.saw();
        for (const d of done) d.ok ? d.job.resolve(d.value) : d.job.reject(storeFault(d.value));
      },
      (err: unknown) => {
        // Committed, but maybe not on the disk: no answer may say it is stored.
        const fault = isNoSpace(err) ? new InsufficientStorage(UNSYNCED) : err;
        disk.saw(fault);
        for (const d of done) d.job.reject(fault);
      },
    );
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) await batch();
    } catch (err) {
      const fault = storeFault(err);
      for (const job of queue.splice(0)) job.reject(fault);
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

/**
 * fsync of the write-ahead log off the event loop. SQLite runs with synchronous=NORMAL, so a
 * COMMIT writes its frames to the WAL without waiting for the disk; this makes them durable
 * (the same fsync synchronous=FULL would do inside COMMIT, blocking the thread for 1–3 ms) on
 * libuv's thread pool. Each call resolves once an fsync that began after the call has finished,
 * so everything committed before the call is on disk; calls that wait together share one fsync.
 */
/**
 * Asks `read` once per turn of the event loop: every request read in one turn was received before
 * that turn began, so a commit another process finished before a request was sent is seen by it.
 * (\`pragma data_version\` costs a few microseconds, asked by every cached read: a tenth of a cached
 * API read's time.)
 */
function onePerTurn<T>(read: () => T): () => T {
  let memo: { value: T } | null = null;
  const forget = () => {
    memo = null;
  };
  return () => {
    if (memo) return memo.value;
    memo = { value: read() };
    setImmediate(forget);
    return memo.value;
  };
}

function walSync(walFile: string): { sync: () => Promise<void>; close: () => Promise<void> } {
  // Opened at the first commit: the log exists by then.
  let fd: number | null = null;
  let current: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const fsync = () =>
    new Promise<void>((resolve, reject) => fs.fsync((fd ??= fs.openSync(walFile, 'r+')), (err) => (err ? reject(err) : resolve()))).finally(() => {
      current = null;
    });
  const sync = (): Promise<void> => {
    if (!current) return (current = fsync());
    // The fsync under way may have begun before this commit: one more after it covers every waiter.
    next ??= current
      .catch(() => {})
      .then(() => {
        next = null;
        return sync();
      });
    return next;
  };
  return {
    sync,
    /** After the fsyncs under way, so that every commit answered is on disk. */
    close: async () => {
      await next?.catch(() => {});
      await current?.catch(() => {});
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}

export interface SqliteOptions {
  /**
   * Handed the writer's own connection once it is open: a test's seam to make what no test may
   * make for real, e.g. a full disk (`pragma max_page_count`, docs/operations.md).
   */
  onConnection?(raw: Database.Database): void;
}

export async function openSqliteStore(file: string, secrets?: SecretBox, opts: SqliteOptions = {}): Promise<Store> {
  const dir = path.dirname(file);
  if (file !== ':memory:') fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // SECRETS_KEY, else the key file beside the database (made on first start); in memory, a key of the process's own.
  const box = secrets ?? new SecretBox(file === ':memory:' ? randomBytes(32) : keyFromFile(dir));
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  // Each request's transaction is a SAVEPOINT of a group commit (below); SQLite keeps a
  // savepoint's undo pages in a sub-journal, a temp file by default. In memory it costs a third
  // of a record write less (bench: 207 → 143 µs of SQLite time per write).
  raw.pragma('temp_store = MEMORY');
  // The CLI and the server write the same file: wait for the other's lock, never fail at once.
  raw.pragma('busy_timeout = 5000');
  opts.onConnection?.(raw);
  const statements = withStatementCache(raw);
  const db = new Kysely<Schema>({ dialect: withFaults(new SqliteDialect({ database: statements })) });
  await migrate(db, 'sqlite');
  await sealStoredSecrets(db, box);
  // The database holds secrets' ciphertexts and every zone: readable by its owner only.
  const exposed = file === ':memory:' ? [] : restrictDataDir(dir, [path.basename(file), `${path.basename(file)}-wal`, `${path.basename(file)}-shm`, KEY_FILE]);
  const repos = createRepos(db, 'sqlite', box);
  const wal = file === ':memory:' ? { sync: () => Promise.resolve(), close: async () => {} } : walSync(`${file}-wal`);
  const dataVersion = raw.prepare('pragma data_version').pluck();
  const disk = new DiskState();
  const state = {
    kind: 'sqlite' as const,
    exposed,
    // SQLite's data_version changes when another connection commits (not for this one's own writes).
    version: onePerTurn(() => dataVersion.get() as number),
    ping: async () => {
      await sql`select 1`.execute(db);
      return true;
    },
    diskFullSince: disk.fullSince,
    schemaVersion: () => schemaVersion(db),
  };
  return {
    ...state,
    ...repos,
    reads: { ...state, ...readRepos(repos) },
    secrets: box,
    resealSecrets: (next) => resealSecrets(db, box, next),
    transaction: groupCommit(db, statements, wal.sync, box, disk),
    close: async () => {
      await db.destroy();
      await wal.close();
    },
  };
}
