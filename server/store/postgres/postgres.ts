/**
 * The PostgreSQL store, for many API nodes on one database. Same repos as SQLite; a zone's
 * serial is bumped under a row lock (`domains.lock`) so concurrent nodes never reuse one.
 * Besides, what only a shared database needs: token buckets every node counts in, and a feed
 * of the zone changes every node publishes (NOTIFY in the transaction, LISTEN per node).
 */
import { sql, type Kysely } from 'kysely';
import type { Database as Schema } from '../schema';
import { ZONES_CHANNEL } from '../repos/cluster-repos';
import { migrate, schemaVersion } from '../migrate';
import { postgresBuckets } from './postgres-buckets';
import { listenPostgres } from './postgres-feed';
import { postgresPool } from './pg-pool';
import { createRepos } from '../repos/repos';
import type { FeedHandlers, Store } from '../types';
import { readRepos } from '../repos/read-repos';
import { resealSecrets, sealStoredSecrets, SecretsKeyError, type SecretBox } from '../secret-box';

export async function openPostgresStore(url: string, box?: SecretBox): Promise<Store> {
  if (!box) throw new SecretsKeyError('SECRETS_KEY must be set with DATABASE_URL: every node seals and opens the secrets with the same key (openssl rand -base64 32)');
  // The migrations on a pool of their own, with no limit on a statement's time.
  const migrating = postgresPool(url, { queryTimeoutMs: 0 });
  try {
    await migrate(migrating, 'postgres');
    await sealStoredSecrets(migrating, box);
  } finally {
    await migrating.destroy();
  }
  const db = postgresPool(url);
  const repos = createRepos(db, 'postgres', box);
  const state = { ...postgresState(db, url), sharedBuckets: postgresBuckets(db) };
  return {
    ...state,
    ...repos,
    reads: { ...state, ...readRepos(repos) },
    secrets: box,
    resealSecrets: (next) => resealSecrets(db, box, next),
    transaction: (fn) => db.transaction().execute((trx) => fn(createRepos(trx, 'postgres', box))),
    close: async () => {
      await db.destroy();
    },
  };
}

/** What a PostgreSQL store says of itself, writer or reader: its kind, health, schema and the feed. */
export function postgresState(db: Kysely<Schema>, url: string) {
  return {
    kind: 'postgres' as const,
    listen: (handlers: FeedHandlers) => listenPostgres(url, ZONES_CHANNEL, handlers),
    ping: async () => {
      await sql`select 1`.execute(db);
      return true;
    },
    schemaVersion: () => schemaVersion(db),
  };
}
