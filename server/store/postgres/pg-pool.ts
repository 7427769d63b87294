/**
 * The pool of PostgreSQL connections a store runs on, made to outlive the database's restarts,
 * failovers and outages: no failure of a connection crashes the process, no request waits on the
 * database for more than a bounded time, and the pool opens new connections once it is back.
 */
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database as Schema } from '../schema';
import { withFaults } from '../fault-dialect';

/** Longest wait for a connection, new or from the pool: past it the request answers 503. */
export const CONNECT_TIMEOUT_MS = 5000;
/** Longest wait for one query's answer on a connection that went silent (a network partition). */
export const QUERY_TIMEOUT_MS = 10_000;

export interface PoolOptions {
  /** Each connection in read-only transactions, so a write fails in the database. */
  readOnly?: boolean;
  /** 0: no limit, for the migrations, whose statements may take long on a large database. */
  queryTimeoutMs?: number;
}

/**
 * A connection that failed must neither crash the process nor serve again. node-postgres emits
 * 'error' on a client whose connection the server ended (57P01 at a restart), and an 'error'
 * with no listener throws: the pool listens only while a client is idle, so a checked-out one
 * (a transaction between two statements) needs a listener of its own. The client is then not
 * queryable, and the pool drops it when it comes back. A query that timed out leaves its client
 * waiting for an answer that may never come: it is ended, so the pool drops it too.
 */
function guard(client: pg.PoolClient): void {
  client.on('error', () => {});
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if (err instanceof Error && err.message === 'Query read timeout') void client.end().catch(() => {});
      });
    }
    return result;
  }) as typeof client.query;
}

/** A pool of connections to `url`, its failures told by what they mean (fault-dialect.ts). */
export function postgresPool(url: string, opts: PoolOptions = {}): Kysely<Schema> {
  // bigint (serials) comes back as text by default; every one we store fits a double.
  pg.types.setTypeParser(20, (v) => Number(v));
  const queryTimeout = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...(queryTimeout > 0 ? { query_timeout: queryTimeout } : {}),
    ...(opts.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  // An idle connection the server dropped (restart, failover): the pool discards it, and the next
  // query opens a new one.
  pool.on('error', () => {});
  pool.on('connect', guard);
  return new Kysely<Schema>({ dialect: withFaults(new PostgresDialect({ pool })) });
}
