/**
 * Second factors: TOTP (RFC 6238) with recovery codes, and when a
 * dashboard session last proved who its user is.
 *
 * - `totp_factors`: one per user; the secret sealed at rest like the other secrets; null
 *   `confirmed_at` while enrolment waits for its first code; `last_step` is the last time step
 *   a code was accepted for, so no code works twice.
 * - `recovery_codes`: ten per confirmed enrolment, stored hashed (SHA-256 of a 50-bit random
 *   code), each usable once.
 * - `passkeys`: WebAuthn credentials, by their credential id (base64url), with
 *   the public key, the signature counter (checked to move on) and when each was last used.
 * - `webauthn_challenges`: each ceremony's challenge, stored server-side, single use, 5 minutes.
 * - `sessions.authenticated_at`: when the session's user last gave their password (and second
 *   factor); creating tokens or keys and removing a factor need it within 10 minutes.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('totp_factors')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const id = (t: any) => (dialect === 'postgres' ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement()));
  await id(db.schema.createTable('recovery_codes'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c: any) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer')
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('sessions').addColumn('authenticated_at', 'text').execute();
  await sql`update sessions set authenticated_at = created_at`.execute(db);
}
