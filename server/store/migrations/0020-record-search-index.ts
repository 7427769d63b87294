/**
 * An index for the search across zones: substring and prefix searches
 * on a record's full name and content read an index instead of every record.
 *
 * - SQLite: `records_trigram`, a contentless FTS5 table with the trigram tokenizer over each
 *   record's full name (`www.example.com`, the apex is the zone's name) and content, its rowid the
 *   record's id. Triggers on `records` (and on a zone's name) keep it in step, so every writer —
 *   change sets, imports, RFC 2136, the PowerDNS API — keeps it right without knowing of it. The
 *   search asks it for candidates (a superset: it folds case beyond ASCII) and checks each with the
 *   same LIKE as before, so the answers are exactly those of a scan.
 * - PostgreSQL: `record_fqdns` (record id → full name), kept by triggers the same way, and
 *   `pg_trgm` GIN indexes on it and on `records.content` (LIKE and ILIKE use them as they are).
 *   `CREATE EXTENSION pg_trgm` needs a privilege a database owner may lack: it runs in a
 *   savepoint, and without it the indexes are skipped with a warning — search stays correct, only
 *   slower (docs/operations.md).
 *
 * Both backfill the records already there.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

/** A record's full name, from `records` row `r` (`new` or `old` in a trigger) and its zone. */
const fqdn = (r: string) => `(case when ${r}.name = '@' then (select name from domains where id = ${r}.domain_id) else ${r}.name || '.' || (select name from domains where id = ${r}.domain_id) end)`;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table records_trigram using fts5(fqdn, content, tokenize = 'trigram', content = '', contentless_delete = 1)`.execute(db);
    await sql
      .raw(
        `create trigger records_trigram_insert after insert on records begin
        insert into records_trigram (rowid, fqdn, content) values (new.id, ${fqdn('new')}, new.content);
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger records_trigram_delete after delete on records begin
        delete from records_trigram where rowid = old.id;
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger records_trigram_update after update of name, content, domain_id on records begin
        delete from records_trigram where rowid = old.id;
        insert into records_trigram (rowid, fqdn, content) values (new.id, ${fqdn('new')}, new.content);
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger records_trigram_zone after update of name on domains when new.name is not old.name begin
        delete from records_trigram where rowid in (select id from records where domain_id = new.id);
        insert into records_trigram (rowid, fqdn, content) select r.id, ${fqdn('r')}, r.content from records r where r.domain_id = new.id;
      end`,
      )
      .execute(db);
    await sql`insert into records_trigram (rowid, fqdn, content) select r.id, case when r.name = '@' then d.name else r.name || '.' || d.name end, r.content from records r join domains d on d.id = r.domain_id`.execute(
      db,
    );
    return;
  }

  await sql`create table record_fqdns (record_id integer primary key references records (id) on delete cascade, fqdn text not null)`.execute(db);
  // Statement triggers with transition tables: an import of many records is one insert here, not one per record.
  const fromRows = (rows: string) => `select r.id, case when r.name = '@' then d.name else r.name || '.' || d.name end from ${rows} r join domains d on d.id = r.domain_id`;
  await sql
    .raw(
      `create function record_fqdns_added() returns trigger language plpgsql as $$
    begin
      insert into record_fqdns (record_id, fqdn) ${fromRows('added')};
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger record_fqdns_added after insert on records referencing new table as added for each statement execute function record_fqdns_added()`.execute(db);
  await sql
    .raw(
      `create function record_fqdns_moved() returns trigger language plpgsql as $$
    begin
      insert into record_fqdns (record_id, fqdn)
        ${fromRows('(select n.* from moved n join was o on o.id = n.id where n.name is distinct from o.name or n.domain_id is distinct from o.domain_id)')}
        on conflict (record_id) do update set fqdn = excluded.fqdn;
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger record_fqdns_moved after update on records referencing new table as moved old table as was for each statement execute function record_fqdns_moved()`.execute(db);
  await sql
    .raw(
      `create function record_fqdns_zone() returns trigger language plpgsql as $$
    begin
      update record_fqdns f set fqdn = case when r.name = '@' then new.name else r.name || '.' || new.name end
        from records r where r.id = f.record_id and r.domain_id = new.id;
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger record_fqdns_zone after update of name on domains for each row when (new.name is distinct from old.name) execute function record_fqdns_zone()`.execute(db);
  await sql`insert into record_fqdns (record_id, fqdn) select r.id, case when r.name = '@' then d.name else r.name || '.' || d.name end from records r join domains d on d.id = r.domain_id`.execute(
    db,
  );

  // The extension may need a privilege the database owner lacks (or live in a schema outside the
  // search path): it and its indexes are tried in a savepoint, so a refusal leaves the migration's
  // transaction usable and the search correct, only without them.
  await sql`savepoint record_search_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index record_fqdns_trgm on record_fqdns using gin (fqdn gin_trgm_ops)`.execute(db);
    await sql`create index records_content_trgm on records using gin (content gin_trgm_ops)`.execute(db);
    await sql`release savepoint record_search_trgm`.execute(db);
  } catch (e) {
    await sql`rollback to savepoint record_search_trgm`.execute(db);
    await sql`release savepoint record_search_trgm`.execute(db);
    process.emitWarning(
      `the pg_trgm extension or its indexes could not be created (${e instanceof Error ? e.message : String(e)}): searches across zones by substring or prefix stay correct but read every record; see docs/operations.md`,
      { code: 'ZONEDECK_NO_PG_TRGM' },
    );
  }
}
