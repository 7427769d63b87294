/**
 * A fresh PostgreSQL database per test, created beside the one TEST_DATABASE_URL names.
 *
 * Creating and migrating a database costs ~250 ms, more than most API tests take. So the
 * in-process test app (`reusable`) gets a database of a small pool instead: migrated once,
 * and emptied between tests (every table truncated, its sequences restarted, and the rows
 * the migrations seeded put back), which leaves it as a just-migrated one. Processes such
 * as cluster nodes get a database of their own. The vitest global set-up drops every
 * database of its run at the end (their names carry the run's id).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore } from '../store/open';

/** The SECRETS_KEY every test node on PostgreSQL shares (every node needs the same key). */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/** Set by the global set-up for the whole run; each worker inherits it. */
export const RUN_PREFIX = `zd_test_${process.env.ZONEDECK_TEST_RUN ?? randomBytes(3).toString('hex')}_`;

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onDatabase<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function newDatabase(adminUrl: string): Promise<string> {
  const name = `${RUN_PREFIX}${randomBytes(6).toString('hex')}`;
  await onDatabase(adminUrl, (c) => c.query(`create database ${name}`));
  return name;
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await onDatabase(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
}

/** A new, empty database (the store makes its tables when it opens); `reusable` for one of the pool, already migrated. */
export async function createPostgresDatabase(adminUrl: string, opts: { reusable?: boolean } = {}): Promise<TestDatabase> {
  if (opts.reusable) return pooledDatabase(adminUrl);
  const name = await newDatabase(adminUrl);
  return { url: withDatabase(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

/** What a just-migrated database holds: its tables and the rows the migrations put in them. */
interface Seed {
  tables: string[];
  rows: Map<string, unknown[]>;
}

const pool: string[] = [];
/**
 * The pool's databases handed out and not yet given back. The test files of a vitest worker share
 * this module (vitest.config.ts: no isolation), so a database given back twice must still be lent
 * to one test app at a time.
 */
const lent = new Set<string>();
let seed: Seed | undefined;

const KEEP = new Set(['kysely_migration', 'kysely_migration_lock']);

async function readSeed(c: pg.Client): Promise<Seed> {
  const { rows } = await c.query<{ tablename: string }>(`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  const tables = rows.map((r) => r.tablename).filter((t) => !KEEP.has(t));
  const seeded = new Map<string, unknown[]>();
  for (const t of tables) {
    const { rows: content } = await c.query(`select * from "${t}"`);
    if (content.length) seeded.set(t, content);
  }
  return { tables, rows: seeded };
}

async function pooledDatabase(adminUrl: string): Promise<TestDatabase> {
  // Only a database given back once is in the pool (drop below), so none in it is lent.
  const free = pool.pop();
  const name = free ?? (await newDatabase(adminUrl));
  if (free === undefined) {
    const store = await openStore({ databaseUrl: withDatabase(adminUrl, name), sqlitePath: '', secretsKey: TEST_SECRETS_KEY });
    await store.close();
    seed ??= await onDatabase(withDatabase(adminUrl, name), readSeed);
  }
  lent.add(name);
  const url = withDatabase(adminUrl, name);
  const s = seed!;
  return {
    url,
    async drop() {
      if (!lent.delete(name)) return;
      try {
        await onDatabase(url, async (c) => {
          // Anything still connected (a LISTEN a test left open) would see the truncation; end it first.
          await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
          await c.query(`truncate ${s.tables.map((t) => `"${t}"`).join(', ')} restart identity cascade`);
          for (const [table, rows] of s.rows) {
            await c.query(`insert into "${table}" select * from json_populate_recordset(null::"${table}", $1)`, [JSON.stringify(rows)]);
          }
        });
        pool.push(name);
      } catch {
        await dropDatabase(adminUrl, name);
      }
    },
  };
}

/** Drops every database this run made (the global set-up's teardown). */
export async function dropRunDatabases(adminUrl: string): Promise<void> {
  await onDatabase(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`${RUN_PREFIX}%`]);
    for (const { datname } of rows) await c.query(`drop database if exists ${datname} with (force)`);
  });
}
