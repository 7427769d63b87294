/**
 * Many nodes on one database: the catalog zone's serial, failed sign-ins
 * counted for every node, and (PostgreSQL only) the API's token buckets.
 *
 * - `catalog`: one row whose serial moves on in the transaction that creates or deletes a
 *   zone, so every node serves the same catalog zone (RFC 9432) at the same serial.
 * - `sign_in_failures`: the BFF throttle's counts by key (`user:…`, `addr:…`), times in ms.
 * - `rate_buckets`: UNLOGGED (no WAL: a crash forgets them, which costs clients nothing), one
 *   row per key touched within the last burst; `full_at` is when an untouched bucket is full
 *   again, after which the row can go. SQLite keeps its buckets in memory (one node).
 */
import { sql, type Kysely } from 'kysely';
import { nextSerial } from '../../core/soa';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('catalog')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('serial', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into catalog (id, serial) values (1, ${nextSerial(0)})`.execute(db);

  await db.schema
    .createTable('sign_in_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_last').on('sign_in_failures').column('last_at').execute();

  if (dialect === 'postgres') {
    await sql`create unlogged table rate_buckets (
      key text primary key,
      tokens double precision not null,
      at double precision not null,
      full_at double precision not null,
      allowed boolean not null
    )`.execute(db);
  }
}
