/**
 * A signed zone holds an RRSIG and an NSEC beside each CNAME (RFC 4035 §2.5, RFC 2181 §10.1):
 * the database's CNAME exclusivity (migration 0001) lets those two types stand beside one, so a
 * secondary zone of a signed primary can be stored as transferred. Every other type still cannot.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../migrate';

/** Types that may stand beside a CNAME, as SQL. */
const BESIDE = `('RRSIG', 'NSEC')`;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    for (const op of ['insert', 'update']) {
      await sql.raw(`DROP TRIGGER records_cname_exclusive_${op}`).execute(db);
      await sql
        .raw(
          `CREATE TRIGGER records_cname_exclusive_${op} BEFORE ${op.toUpperCase()} ON records
           WHEN NEW.record_type NOT IN ${BESIDE} AND EXISTS (SELECT 1 FROM records r WHERE r.domain_id = NEW.domain_id AND r.name = NEW.name
                        AND r.id IS NOT NEW.id AND r.record_type NOT IN ${BESIDE} AND (NEW.record_type = 'CNAME' OR r.record_type = 'CNAME'))
           BEGIN SELECT RAISE(ABORT, 'cname_exclusive'); END`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION records_cname_exclusive() RETURNS trigger AS $$
       BEGIN
         PERFORM pg_advisory_xact_lock(NEW.domain_id);
         IF NEW.record_type NOT IN ${BESIDE} AND EXISTS (SELECT 1 FROM records r WHERE r.domain_id = NEW.domain_id AND r.name = NEW.name
                    AND r.id <> NEW.id AND r.record_type NOT IN ${BESIDE} AND (NEW.record_type = 'CNAME' OR r.record_type = 'CNAME')) THEN
           RAISE EXCEPTION 'cname_exclusive';
         END IF;
         RETURN NEW;
       END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
}
