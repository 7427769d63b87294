/**
 * Secondary zones: zones whose records come by zone transfer from primaries elsewhere.
 *
 * - `domains.kind`: `primary` (every zone before this) or `secondary`; `primaries` (JSON list of
 *   `host:port`) and `tsig_key` (the key its transfers and NOTIFYs are signed with) for a secondary.
 * - `domains.soa_mname`, `soa_rname`: a secondary serves its primary's SOA as transferred (a
 *   primary zone's come from NAMESERVERS and HOSTMASTER); `expires_at`: when a secondary stops
 *   being served unless refreshed (RFC 1035 §3.3.13 EXPIRE), null until its first transfer. These
 *   live on the zone row because every node's DNS reads them with the zone.
 * - `zone_transfers`: what the refresh of a secondary knows and no DNS answer needs: its state,
 *   the last check and its error, when it is due again, and the lease one node holds while it
 *   checks (so that, with many nodes, one at a time transfers a zone).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('primary'))
    .execute();
  for (const column of ['primaries', 'tsig_key', 'soa_mname', 'soa_rname', 'expires_at']) await db.schema.alterTable('domains').addColumn(column, 'text').execute();
  await db.schema
    .createTable('zone_transfers')
    .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('serial', 'bigint')
    .addColumn('last_check', 'text')
    .addColumn('last_success', 'text')
    .addColumn('error', 'text')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_check', 'text', (c) => c.notNull())
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'text')
    .execute();
  await db.schema.createIndex('zone_transfers_due').on('zone_transfers').column('next_check').execute();
}
