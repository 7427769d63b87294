/**
 * When DNSSEC was last turned off for a zone, so that the DNS server can publish the CDS and
 * CDNSKEY delete form (RFC 8078 §4) for a while after it. A column rather than a search of the
 * history: history is pruned (HISTORY_DAYS) and the server reads this for every zone it loads.
 * Zones turned off before this migration get the time from their history where it still is.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('domains').addColumn('dnssec_disabled_at', 'text').execute();
  await backfill(db);
}

/** Unsigned zones: the time of the last change set that turned DNSSEC off, if the history has one. */
export async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql`update domains set dnssec_disabled_at = (
              select max(created_at) from change_sets
              where change_sets.domain_id = domains.id and change_sets.settings like ${'%"dnssec_enabled":[true,false]%'})
            where dnssec_enabled = 0`.execute(db);
}
