/**
 * PostgreSQL keeps each zone's record count (migration 0004) with one update of the zone's row per
 * statement instead of one per record. Updating the same row once per inserted record, inside one
 * transaction, made a large write quadratic: every update walks the chain of that row's versions
 * made earlier in the transaction, so an import of 50,000 records took two minutes where SQLite
 * takes five seconds. A statement trigger sees all the statement's rows at once (transition
 * tables, as migration 0021 uses) and adds each zone's count in one update.
 *
 * SQLite keeps its row triggers: it updates a row in place, with no versions to walk.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  await sql`DROP TRIGGER records_count ON records`.execute(db);
  await sql`DROP FUNCTION records_count()`.execute(db);
  const counted = (sign: '+' | '-') =>
    sql.raw(`BEGIN
       UPDATE domains d SET record_count = d.record_count ${sign} t.n
         FROM (SELECT domain_id, count(*) AS n FROM touched GROUP BY domain_id) t
        WHERE d.id = t.domain_id;
       RETURN NULL;
     END`);
  await sql`CREATE FUNCTION records_count_added() RETURNS trigger LANGUAGE plpgsql AS $$ ${counted('+')} $$`.execute(db);
  await sql`CREATE FUNCTION records_count_removed() RETURNS trigger LANGUAGE plpgsql AS $$ ${counted('-')} $$`.execute(db);
  await sql`CREATE TRIGGER records_count_insert AFTER INSERT ON records REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION records_count_added()`.execute(db);
  await sql`CREATE TRIGGER records_count_delete AFTER DELETE ON records REFERENCING OLD TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION records_count_removed()`.execute(db);
}
