/**
 * Templates and work across zones.
 *
 * - `templates`: a named set of RRsets (JSON) with `{zone}` and `{var}` placeholders, owned by a
 *   user or, when `team_id` is set, by a team. `owner` (`user:<id>` or `team:<id>`) makes the
 *   name unique per owner in one index both databases enforce alike.
 * - `zone_templates`: which template a zone came from (or had applied last), with the variables
 *   it was rendered with, so the template page can tell which zones have drifted from it.
 * - `change_sets.batch_id`: the change sets one apply across zones wrote share it, so the
 *   history shows the batch and the batch can be reverted as one.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = (t: any) => (dialect === 'postgres' ? t.addColumn('id', 'serial', (c: any) => c.primaryKey()) : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement()));

  await id(db.schema.createTable('templates'))
    .addColumn('owner', 'text', (c: any) => c.notNull())
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c: any) => c.references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c: any) => c.notNull())
    .addColumn('description', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('rrsets', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('templates_owner_name', ['owner', 'name'])
    .execute();

  await db.schema
    .createTable('zone_templates')
    .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('domains.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('templates.id').onDelete('cascade'))
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('zone_templates_template').on('zone_templates').column('template_id').execute();

  await db.schema.createIndex('records_content').on('records').column('content').execute();

  await db.schema.alterTable('change_sets').addColumn('batch_id', 'text').execute();
  await db.schema.createIndex('change_sets_batch').on('change_sets').column('batch_id').execute();
}
