/**
 * A password someone else chose is changed at the next sign-in: `users.must_change_password` is set
 * when the first start makes the admin's password or an administrator resets one, and cleared when the
 * user sets their own. The name servers in effect (NAMESERVERS as last applied to the zones) need
 * no column: they are a row of `settings`.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
