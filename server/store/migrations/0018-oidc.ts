/**
 * Single sign-on with OpenID Connect.
 *
 * - `users.email`: the address an administrator gives a user (lower case); an identity whose
 *   provider vouches for the same address (`email_verified`) is linked to that user on first use.
 * - `user_identities`: an OpenID identity (issuer and subject, unique) linked to a user.
 * - `oidc_logins`: each authorization request in flight, kept server-side: the state (as its
 *   SHA-256), the hash of the random value in the browser's cookie it is bound to, the nonce and
 *   the PKCE verifier, and the dashboard page to return to; single use, 10 minutes.
 * - `settings`: service-wide switches an administrator changes at run time (password sign-in).
 * - `sessions.sign_in_method`: how the session's user signed in (`password`, `passkey`, `oidc`).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('email', 'text').execute();
  await db.schema.createIndex('users_email').on('users').column('email').execute();
  const id = (t: any) => (dialect === 'postgres' ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement()));
  await id(db.schema.createTable('user_identities'))
    .addColumn('issuer', 'text', (c: any) => c.notNull())
    .addColumn('subject', 'text', (c: any) => c.notNull())
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addUniqueConstraint('user_identities_issuer_subject', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();
  await db.schema
    .createTable('oidc_logins')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('next_path', 'text', (c) => c.notNull().defaultTo('/'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('sign_in_method', 'text', (c) => c.notNull().defaultTo('password'))
    .execute();
}
