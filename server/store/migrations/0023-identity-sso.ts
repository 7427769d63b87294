/**
 * Single sign-on, linked on purpose and with zonedeck's second factor.
 *
 * - `oidc_logins.link_user_id`: set when a signed-in user started the request from their Account
 *   page to link the provider's identity to their own account (the callback links it to that user
 *   only, and only for the browser still signed in as them); null for a sign-in.
 * - `pending_sign_ins`: a sign-in through the provider that still waits for the user's second
 *   factor (TOTP, or a passkey): the hash of the random value in the browser's cookie, the user,
 *   what the provider said (issuer, email) and the page to land on; single use, 10 minutes.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oidc_logins')
    .addColumn('link_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('pending_sign_ins')
    .addColumn('step_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('how', 'text', (c) => c.notNull())
    .addColumn('next_path', 'text', (c) => c.notNull().defaultTo('/'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
