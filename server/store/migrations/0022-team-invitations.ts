/**
 * Team invitations: an owner no longer adds a user to a team, they invite one, and the user
 * becomes a member when they accept.
 *
 * - `team_invitations`: one pending invitation per team and username, with the role it offers,
 *   who invited and when. `user_id` is the user who had that name when the invitation was made;
 *   null when nobody had it, and then the invitation is kept (so the inviter cannot tell a
 *   stranger's name from a user's) but never matches anyone, not even a user created later under
 *   that name. Accepting, declining, cancelling or deleting the team removes it.
 * - Memberships made before this migration are left as they are.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const table = db.schema.createTable('team_invitations');
  const withId = dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await withId
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('team_invitations_one', ['team_id', 'username'])
    .execute();
  await db.schema.createIndex('team_invitations_user').on('team_invitations').column('user_id').execute();
}
