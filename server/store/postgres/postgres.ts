/**
 * The PostgreSQL store, for many API nodes on one database. Same repos as SQLite; a zone's
 * serial is bumped under a row lock (`domains.lock`) so concurrent nodes never reuse one.
 * Besides, what only a shared database needs: token buckets every node counts in, and a feed
 * of the zone changes every node publishes (NOTIFY in the transaction, LISTEN per node).
 */
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database as Schema } from '../schema';
import { ZONES_CHANNEL } from '../repos/cluster-repos';
import { migrate, schemaVersion } from '../migrate';
import { postgresBuckets } from './postgres-buckets';
import { listenPostgres } from './postgres-feed';
import { createRepos } from '../repos/repos';
import type { FeedHandlers, Store } from '../types';
import { readRepos } from '../repos/read-repos';
import { resealSecrets, sealStoredSecrets, SecretsKeyError, type SecretBox } from '../secret-box';

export async function openPostgresStore(url: string, box?: SecretBox): Promise<Store> {
  if (!box) throw new SecretsKeyError('SECRETS_KEY must be set with DATABASE_URL: every node seals and opens the secrets with the same key (openssl rand -base64 32)');
  const db = postgresPool(url);
  await migrate(db, 'postgres');
  await sealStoredSecrets(db, box);
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

/** A pool of connections to `url`; `readOnly`: each one in read-only transactions, so a write fails in the database. */
export function postgresPool(url: string, opts: { readOnly?: boolean } = {}): Kysely<Schema> {
  // bigint (serials) comes back as text by default; every one we store fits a double.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: 10, ...(opts.readOnly ? { options: '-c default_transaction_read_only=on' } : {}) });
  // An idle connection the server dropped (restart, failover) must not crash the process:
  // the pool discards it, and the next query opens a new one.
  pool.on('error', () => {});
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
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
