/** Users, tokens, IPs, zones and records. */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const id = (t: { addColumn: Function }) =>
    dialect === 'postgres' ? (t as any).addColumn('id', 'serial', (c: any) => c.primaryKey()) : (t as any).addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable('users'))
    .addColumn('username', 'text', (c: any) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .execute();

  await id(db.schema.createTable('tokens'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('label', 'text', (c: any) => c.notNull().defaultTo(''))
    .addColumn('token_hash', 'text', (c: any) => c.notNull().unique())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute();

  await id(db.schema.createTable('ips'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c: any) => c.notNull())
    .addColumn('cidr', 'integer', (c: any) => c.notNull())
    .addColumn('active', 'integer', (c: any) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addUniqueConstraint('ips_user_range', ['user_id', 'address', 'cidr'])
    .execute();

  await id(db.schema.createTable('domains'))
    .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c: any) => c.notNull().unique())
    .addColumn('serial_number', 'bigint', (c: any) => c.notNull())
    .addColumn('refresh_interval', 'integer', (c: any) => c.notNull())
    .addColumn('retry_interval', 'integer', (c: any) => c.notNull())
    .addColumn('expire_interval', 'integer', (c: any) => c.notNull())
    .addColumn('minimum_ttl', 'integer', (c: any) => c.notNull())
    .addColumn('dnssec_enabled', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('delegated', 'integer', (c: any) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex('domains_user_name').on('domains').columns(['user_id', 'name']).execute();

  await id(db.schema.createTable('records'))
    .addColumn('domain_id', 'integer', (c: any) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('name', 'text', (c: any) => c.notNull())
    .addColumn('record_type', 'text', (c: any) => c.notNull())
    .addColumn('content', 'text', (c: any) => c.notNull())
    .addColumn('ttl', 'integer', (c: any) => c.notNull())
    .addColumn('created_at', 'text', (c: any) => c.notNull())
    .addColumn('updated_at', 'text', (c: any) => c.notNull())
    // Duplicates are rejected after canonicalization (content is stored canonical).
    .addUniqueConstraint('records_unique_content', ['domain_id', 'name', 'record_type', 'content'])
    .execute();
  await db.schema.createIndex('records_lookup').on('records').columns(['domain_id', 'name', 'record_type', 'id']).execute();
  await db.schema.createIndex('records_type').on('records').columns(['domain_id', 'record_type', 'name']).execute();

  // CNAME exclusivity (RFC 1034 §3.6.2, RFC 2181 §10.1) enforced by the database too,
  // so that no code path can store a CNAME beside other data.
  if (dialect === 'sqlite') {
    for (const op of ['INSERT', 'UPDATE']) {
      await sql
        .raw(
          `CREATE TRIGGER records_cname_exclusive_${op.toLowerCase()} BEFORE ${op} ON records
           WHEN EXISTS (SELECT 1 FROM records r WHERE r.domain_id = NEW.domain_id AND r.name = NEW.name
                        AND r.id IS NOT NEW.id AND (NEW.record_type = 'CNAME' OR r.record_type = 'CNAME'))
           BEGIN SELECT RAISE(ABORT, 'cname_exclusive'); END`,
        )
        .execute(db);
    }
  } else {
    await sql
      .raw(
        `CREATE FUNCTION records_cname_exclusive() RETURNS trigger AS $$
         BEGIN
           PERFORM pg_advisory_xact_lock(NEW.domain_id);
           IF EXISTS (SELECT 1 FROM records r WHERE r.domain_id = NEW.domain_id AND r.name = NEW.name
                      AND r.id <> NEW.id AND (NEW.record_type = 'CNAME' OR r.record_type = 'CNAME')) THEN
             RAISE EXCEPTION 'cname_exclusive';
           END IF;
           RETURN NEW;
         END $$ LANGUAGE plpgsql`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER records_cname_exclusive BEFORE INSERT OR UPDATE ON records
         FOR EACH ROW EXECUTE FUNCTION records_cname_exclusive()`,
      )
      .execute(db);
  }
}
