/**
 * Whether a delegation check has ever answered for the zone. `delegated` alone said "not
 * delegated" for every zone no check had reached — all of them where no RESOLVER is set — when the
 * truth was "not known". A zone already marked delegated was marked so by a check.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('delegation_checked', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update domains set delegation_checked = 1 where delegated = 1`.execute(db);
}
