/**
 * TSIG keys (RFC 8945), each belonging to a user, and a scope on
 * API tokens and TSIG keys alike: JSON text, `{}` for unrestricted.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  let table = db.schema.createTable('tsig_keys');
  table = dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The name a client sends in its TSIG RR: unique across users, since the RR names only the key.
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    // Base64. Verifying a MAC needs the secret itself, so it is stored as is (unlike API tokens).
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tsig_keys_user').on('tsig_keys').column('user_id').execute();
  await db.schema
    .alterTable('tokens')
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}
