/**
 * Which database a CLI command works on, said on stderr before it does (a CLI run with
 * another DATA_DIR than the server's used to create a new, empty database without a word, whose
 * tokens the server then refused). A command opens only a database that is there, unless told
 * `--init`: then it creates it, as the server's first start does.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { Refusal } from './refusal';

type Where = Pick<Config, 'dataDir' | 'sqlitePath' | 'databaseUrl'>;

/** A PostgreSQL URL without its password, fit for a terminal and a log. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL (not a URL)';
  }
}

/** The one line that names the database: its file and the DATA_DIR it came from, or the PostgreSQL URL. */
export function databaseLine(config: Where): string {
  if (config.databaseUrl) return `database: PostgreSQL ${shownUrl(config.databaseUrl)} (DATABASE_URL)`;
  if (config.sqlitePath === ':memory:') return 'database: in memory (DATA_DIR=:memory:), gone when the command ends';
  return `database: ${path.resolve(config.sqlitePath)} (DATA_DIR=${config.dataDir})`;
}

/** Whether a zonedeck database is there: the SQLite file, or a PostgreSQL database that has run our migrations. */
async function databaseExists(config: Where): Promise<boolean> {
  if (!config.databaseUrl) return config.sqlitePath !== ':memory:' && fs.existsSync(config.sqlitePath);
  // Loaded only for PostgreSQL, as the store loads it.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 10_000 });
  // A connection the server drops while we ask must not crash the process: the query fails instead.
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from pg_catalog.pg_tables where tablename = 'kysely_migration' and schemaname = any (current_schemas(false))`);
    return Number(rows[0]?.n) > 0;
  } catch (e) {
    throw new Refusal(`cannot reach the database ${shownUrl(config.databaseUrl)}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Refuses, naming what it looked for, unless the database is there or `init` says to create it. */
export async function requireDatabase(config: Where, init: boolean): Promise<void> {
  if (init || (await databaseExists(config))) return;
  if (config.databaseUrl) {
    throw new Refusal(`the database ${shownUrl(config.databaseUrl)} holds no zonedeck data: set DATABASE_URL to the server's database, or add --init to set up a new, empty one there`);
  }
  if (config.sqlitePath === ':memory:')
    throw new Refusal("DATA_DIR=:memory: holds nothing between runs: set DATA_DIR to the server's data directory, or add --init to work on an empty database anyway");
  throw new Refusal(
    `there is no database at ${path.resolve(config.sqlitePath)} (DATA_DIR=${config.dataDir}): set DATA_DIR to the server's data directory, or add --init to create a new, empty database there`,
  );
}
