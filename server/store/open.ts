/** Opens the store the configuration names: PostgreSQL for DATABASE_URL, else SQLite. */
import type { Config } from '../config';
import { openSqliteStore } from './sqlite';
import type { Store } from './types';

export async function openStore(config: Pick<Config, 'sqlitePath' | 'databaseUrl'>): Promise<Store> {
  if (config.databaseUrl) {
    const { openPostgresStore } = await import('./postgres');
    return openPostgresStore(config.databaseUrl);
  }
  return openSqliteStore(config.sqlitePath);
}
