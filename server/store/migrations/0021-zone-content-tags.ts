/**
 * A tag per zone that changes with every write of its records: the DNS index's
 * start-up snapshot (dns/index-snapshot.ts) keeps each zone's served records beside the tag they
 * were read under, and uses them on the next start only while the store still holds that tag.
 *
 * The tag is random, not a counter: a database restored from a backup and then changed reaches
 * the same count with other records, never the same random tag. Triggers keep it — every insert,
 * update or delete of a zone's records, and a zone's creation (a zone id the database may give
 * again after a deletion) — so every writer (change sets, imports, RFC 2136, the PowerDNS API,
 * another node, a hand-written SQL statement) moves it without knowing of it.
 *
 * - SQLite: row triggers (the only kind it has), one upsert each.
 * - PostgreSQL: statement triggers with transition tables, one upsert per zone a statement touched.
 *
 * Every zone there now gets a tag, so snapshots taken from this version on have one to check.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`create table zone_content_tags (domain_id integer primary key, tag text not null)`.execute(db);
  if (dialect === 'sqlite') {
    const retag = (id: string) => `insert into zone_content_tags (domain_id, tag) values (${id}, lower(hex(randomblob(12)))) on conflict (domain_id) do update set tag = excluded.tag;`;
    await sql.raw(`create trigger zone_content_tags_insert after insert on records begin ${retag('new.domain_id')} end`).execute(db);
    await sql.raw(`create trigger zone_content_tags_delete after delete on records begin ${retag('old.domain_id')} end`).execute(db);
    await sql.raw(`create trigger zone_content_tags_update after update on records begin ${retag('old.domain_id')} ${retag('new.domain_id')} end`).execute(db);
    await sql.raw(`create trigger zone_content_tags_zone after insert on domains begin ${retag('new.id')} end`).execute(db);
    await sql`insert into zone_content_tags (domain_id, tag) select id, lower(hex(randomblob(12))) from domains`.execute(db);
    return;
  }
  // md5 of a random number and the transaction's clock: 128 bits, no extension needed.
  const fresh = `md5(random()::text || clock_timestamp()::text)`;
  const retag = (ids: string) =>
    `insert into zone_content_tags (domain_id, tag) select domain_id, ${fresh} from (select distinct domain_id from (${ids}) u) t on conflict (domain_id) do update set tag = excluded.tag;`;
  await sql
    .raw(
      `create function zone_content_tags_rows() returns trigger language plpgsql as $$
    begin
      ${retag('select domain_id from touched')}
      return null;
    end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function zone_content_tags_moved() returns trigger language plpgsql as $$
    begin
      ${retag('select domain_id from touched union select domain_id from was')}
      return null;
    end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function zone_content_tags_zone() returns trigger language plpgsql as $$
    begin
      ${retag('select new.id as domain_id')}
      return null;
    end $$`,
    )
    .execute(db);
  await sql`create trigger zone_content_tags_insert after insert on records referencing new table as touched for each statement execute function zone_content_tags_rows()`.execute(db);
  await sql`create trigger zone_content_tags_delete after delete on records referencing old table as touched for each statement execute function zone_content_tags_rows()`.execute(db);
  await sql`create trigger zone_content_tags_update after update on records referencing new table as touched old table as was for each statement execute function zone_content_tags_moved()`.execute(
    db,
  );
  await sql`create trigger zone_content_tags_zone after insert on domains for each row execute function zone_content_tags_zone()`.execute(db);
  await sql.raw(`insert into zone_content_tags (domain_id, tag) select id, ${fresh} from domains`).execute(db);
}
