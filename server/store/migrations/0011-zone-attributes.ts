/**
 * What PowerDNS clients set on a zone and read back to compare: `account` (PowerDNS-Admin
 * files zones under accounts, Terraform's provider plans on it), `soa_edit_api` and `catalog`. They
 * change nothing zonedeck serves, so they live beside the zone, not in it: one row per zone that has
 * any, removed with the zone.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('zone_attributes')
    .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('soa_edit_api', 'text', (c) => c.notNull().defaultTo('DEFAULT'))
    .addColumn('catalog', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
