/**
 * Teams, account administration and the account audit log.
 *
 * - `teams`, `team_members`: a zone is owned by a user or, when `domains.team_id` is set, by a
 *   team; then its members reach it with their role (`owner`, `admin`, `editor`, `viewer`) and
 *   `domains.user_id` only says who created it. A role change is a new membership row (a new
 *   id), so the DNS thread sees it the way it sees a new TSIG key: by the highest id.
 * - `users.is_admin` (manages users and every team; the first user, whom the first start
 *   creates, is one), `users.disabled_at` (no sign-in, no token).
 * - `audit_events`: sign-ins, sign-outs, passwords, tokens, keys, memberships, user
 *   administration; who (user and credential), from where (address, user agent), when, and
 *   whose account or which team it concerns. Pruned after HISTORY_DAYS like change sets.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = (t: any) => (dialect === 'postgres' ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement()));

  await db.schema
    .alterTable('users')
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
  // The first user (the one the first start creates, `admin`) administers an upgraded install.
  await sql`update users set is_admin = 1 where id = (select min(id) from users)`.execute(db);

  await id(db.schema.createTable('teams'))
    .addColumn('name', 'text', (c: any) => c.notNull().unique())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute();

  await id(db.schema.createTable('team_members'))
    .addColumn('team_id', 'integer', (c: any) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('team_members_one', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  // A team that still owns zones cannot be deleted (restrict): its zones move or go first.
  await db.schema
    .alterTable('domains')
    .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('restrict'))
    .execute();
  await db.schema.createIndex('domains_team').on('domains').column('team_id').execute();

  await id(db.schema.createTable('audit_events'))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('kind', 'text', (c: any) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_username', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('credential', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('address', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('subject_user_id', 'integer')
    .addColumn('subject_username', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('team_id', 'integer')
    .addColumn('team_name', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('detail', 'text', (c: any) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_events_time').on('audit_events').column('created_at').execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').column('actor_user_id').execute();
  await db.schema.createIndex('audit_events_subject').on('audit_events').column('subject_user_id').execute();
  await db.schema.createIndex('audit_events_team').on('audit_events').column('team_id').execute();
}
