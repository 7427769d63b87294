/**
 * Where each dashboard session signed in from: the browser's User-Agent and the client's address
 * at sign-in, so that Account → Sessions can tell a user's laptop from a phone they lost, or from
 * a sign-in they did not make. Null for sessions from before.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
}
