/** Opens the store the configuration names: PostgreSQL for DATABASE_URL, else SQLite. */
import type { Config } from '../config';
import { openSqliteStore } from './sqlite/sqlite';
import { openSqliteReadStore } from './sqlite/sqlite-read';
import { keyFromBase64, SecretBox } from './secret-box';
import type { ReaderStore, Store } from './types';

type Where = Pick<Config, 'sqlitePath' | 'databaseUrl'> & { secretsKey?: string };

/** SECRETS_KEY when given; else (SQLite only) the key file beside the database. */
const boxOf = (config: Where) => (config.secretsKey ? new SecretBox(keyFromBase64(config.secretsKey)) : undefined);

/** The writer: migrates the database, seals what was stored in clear, and holds every write. */
export async function openStore(config: Where): Promise<Store> {
  if (config.databaseUrl) {
    const { openPostgresStore } = await import('./postgres/postgres');
    return openPostgresStore(config.databaseUrl, boxOf(config));
  }
  return openSqliteStore(config.sqlitePath, boxOf(config));
}

/**
 * A reader that writes nothing (the DNS thread), on its own read-only connection: no write
 * method, no transaction, no migration or sealing pass. The writer (the main thread) opens the
 * database first; a reader refuses one whose schema is not this code's.
 */
export async function openReadStore(config: Where): Promise<ReaderStore> {
  if (config.databaseUrl) {
    const { openPostgresReadStore } = await import('./postgres/postgres-read');
    return openPostgresReadStore(config.databaseUrl, boxOf(config));
  }
  return openSqliteReadStore(config.sqlitePath, boxOf(config));
}
