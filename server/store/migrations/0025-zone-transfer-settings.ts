/**
 * Each primary zone's own transfers, beside the global SECONDARIES and AXFR_ALLOW: the secondaries
 * NOTIFY also goes to (`also_notify`, a JSON list of `host:port`), the networks that may transfer
 * the zone (`allow_transfer`, a JSON list of CIDR blocks) and the TSIG key such a transfer and such
 * a NOTIFY are signed with (`transfer_tsig_key`, a key name, or null). Columns of the zone rather
 * than a table of their own: the DNS server reads them with the zone it loads, and a change set
 * changes them like the SOA timers. Every zone there now gets empty lists and no key: nothing changes.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('also_notify', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
  await db.schema
    .alterTable('domains')
    .addColumn('allow_transfer', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
  await db.schema.alterTable('domains').addColumn('transfer_tsig_key', 'text').execute();
}
