/**
 * The TOTP time steps each user's codes were accepted for, so that no code works twice.
 *
 * `totp_factors.last_step` alone refused every step at or before the last one used: after the
 * server's clock stepped back an hour, every code the user's app showed was "older" and refused
 * for that hour. Keeping the steps used (a row each, unique per user) refuses exactly a code used
 * before, whatever the clock did meanwhile. The last step of each confirmed factor is carried over.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('totp_used_steps')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('step', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('totp_used_steps_pk', ['user_id', 'step'])
    .execute();
  await sql`insert into totp_used_steps (user_id, step) select user_id, last_step from totp_factors where confirmed_at is not null and last_step > 0`.execute(db);
}
