/**
 * DNSSEC that rolls its own keys.
 *
 * - `dnssec_keys` gains each key's role (`csk`, `ksk`, `zsk`), its lifecycle state as RFC 7583 names
 *   them (generated, published, ready, active, retired, removed) and since when, and what the DNS
 *   server does with it: publish it in the apex DNSKEY set, sign with it, list it in CDS/CDNSKEY.
 *   Those three are stored rather than derived from the state because an algorithm rollover signs
 *   with a key before it is published and after it is withdrawn (RFC 6781 §4.1.4). Keys there now
 *   are CSKs that are published, sign and are listed: exactly what the server did with them.
 * - `domains.dnssec_policy`: the zone's policy (JSON; null: the defaults), a setting changed by a
 *   change set. `domains.dnssec_rollover`: the rollover in progress (JSON; null: none), written in
 *   the same transaction as the keys it moves, so a process killed mid-step resumes where it was.
 * - `dnssec_watch`: what the node driving a zone's rollovers last saw of the parent's DS set, when it
 *   looks at the zone again, and its lease. Observations, not zone data: they change without a new serial.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const keys = db.schema.alterTable('dnssec_keys');
  await keys.addColumn('role', 'text', (c) => c.notNull().defaultTo('csk')).execute();
  await keys.addColumn('state', 'text', (c) => c.notNull().defaultTo('active')).execute();
  await keys.addColumn('state_at', 'text').execute();
  await keys.addColumn('published', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await keys.addColumn('signing', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await keys.addColumn('in_cds', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await sql`update dnssec_keys set state_at = created_at`.execute(db);
  await db.schema.alterTable('domains').addColumn('dnssec_policy', 'text').execute();
  await db.schema.alterTable('domains').addColumn('dnssec_rollover', 'text').execute();
  await db.schema
    .createTable('dnssec_watch')
    .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('checked_at', 'text')
    .addColumn('parent_ds', 'text')
    .addColumn('seen_at', 'text')
    .addColumn('seen_ttl', 'integer')
    .addColumn('error', 'text')
    .addColumn('next_at', 'text')
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'text')
    .execute();
}
