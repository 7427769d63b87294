/**
 * Disabled records: kept as written, listed with `disabled: true`, never served,
 * signed or transferred (PowerDNS's `disabled`, PowerDNS-Admin's Disable toggle). The history
 * keeps the flag beside each record it lists, so that a toggle reads as the record leaving the
 * served zone (or coming back) and a revert restores it as it was; IXFR sees only served records.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('records')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('change_set_records')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
