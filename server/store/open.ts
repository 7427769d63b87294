/** Opens the store the configuration names: PostgreSQL for DATABASE_URL, else SQLite. */
import type { Config } from '../config';
import { openSqliteStore } from './sqlite/sqlite';
import { keyFromBase64, SecretBox } from './secret-box';
import type { ReadStore, Store } from './types';

export async function openStore(config: Pick<Config, 'sqlitePath' | 'databaseUrl'> & { secretsKey?: string }): Promise<Store> {
  // SECRETS_KEY when given; else (SQLite only) the key file beside the database.
  const box = config.secretsKey ? new SecretBox(keyFromBase64(config.secretsKey)) : undefined;
  if (config.databaseUrl) {
    const { openPostgresStore } = await import('./postgres/postgres');
    return openPostgresStore(config.databaseUrl, box);
  }
  return openSqliteStore(config.sqlitePath, box);
}

/**
 * The store for a reader that writes nothing (the DNS thread): its own connection,
 * typed without a write method or a transaction, so that a write from there is a type error.
 */
export async function openReadStore(config: Pick<Config, 'sqlitePath' | 'databaseUrl'> & { secretsKey?: string }): Promise<ReadStore & Pick<Store, 'close'>> {
  return openStore(config);
}
