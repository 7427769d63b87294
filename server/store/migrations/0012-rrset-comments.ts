/**
 * Comments on RRsets, as the PowerDNS API has them (`comments`: content, account, modified_at):
 * PowerDNS-Admin and other tools write them and read them back. They change nothing
 * zonedeck serves; they are removed with their zone.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  let t = db.schema.createTable('rrset_comments');
  t = dialect === 'postgres' ? t.addColumn('id', 'serial', (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await t
    .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rrset_comments_domain').on('rrset_comments').columns(['domain_id', 'name', 'record_type']).execute();
}
