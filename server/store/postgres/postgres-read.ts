/**
 * PostgreSQL opened for reading alone: the DNS thread's store on many nodes. Every connection of
 * its pool runs with default_transaction_read_only, so a write fails in the database (SQLSTATE
 * 25006); LISTEN, which the feed needs, is allowed there. It migrates and seals nothing: it checks
 * that the schema is the one this code migrates to.
 */
import { requireMigrated } from '../migrate';
import { createRepos } from '../repos/repos';
import { readRepos } from '../repos/read-repos';
import { SecretsKeyError, type SecretBox } from '../secret-box';
import type { ReaderStore } from '../types';
import { postgresState } from './postgres';
import { postgresPool } from './pg-pool';

export async function openPostgresReadStore(url: string, box?: SecretBox): Promise<ReaderStore> {
  if (!box) throw new SecretsKeyError('SECRETS_KEY must be set with DATABASE_URL: every node seals and opens the secrets with the same key (openssl rand -base64 32)');
  const db = postgresPool(url, { readOnly: true });
  try {
    await requireMigrated(db, 'postgres');
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return {
    ...postgresState(db, url),
    ...readRepos(createRepos(db, 'postgres', box)),
    close: () => db.destroy(),
  };
}
