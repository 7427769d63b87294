/**
 * The TXT strings migration on both databases: rows whose old plain text reads as the quoted
 * form under the new rule keep their octets (in the zone and in its history); others are left alone.
 */
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { txtChunks } from '../../core/record-types';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, type Dialect } from '../migrate';
import { rewriteOldTxt, up } from './0010-txt-strings';

/** [content as stored before, the octets it meant on the wire (one string each here), content after]. */
const CASES: Array<[string, string[], string]> = [
  ['"v=DMARC1; p=reject"', ['"v=DMARC1; p=reject"'], '"\\"v=DMARC1; p=reject\\""'],
  ['"a" "b"', ['"a" "b"'], '"\\"a\\" \\"b\\""'],
  ['v=spf1 -all', ['v=spf1 -all'], 'v=spf1 -all'],
  ['say "hi"', ['say "hi"'], 'say "hi"'],
  ['"unclosed', ['"unclosed'], '"unclosed'],
];

async function check(db: Kysely<any>, dialect: Dialect) {
  await migrate(db, dialect);
  const now = '2024-01-01T00:00:00.000Z';
  await sql`insert into users (username, password_hash, created_at) values ('u', 'x', ${now})`.execute(db);
  await sql`insert into domains (user_id, name, serial_number, refresh_interval, retry_interval, expire_interval, minimum_ttl, created_at, updated_at)
            values (1, 'example.com', 1, 1, 1, 1, 1, ${now}, ${now})`.execute(db);
  await sql`insert into change_sets (domain_id, serial_before, serial_after, created_at, source, actor_username, actor_credential, comment, settings, added_count, removed_count)
            values (1, 0, 1, ${now}, 'api', 'u', 'cli', '', '{}', ${CASES.length}, 0)`.execute(db);
  for (const [i, [content]] of CASES.entries()) {
    await sql`insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values (1, ${`t${i}`}, 'TXT', ${content}, 1, ${now}, ${now})`.execute(db);
    await sql`insert into change_set_records (change_set_id, op, name, record_type, ttl, content) values (1, 1, ${`t${i}`}, 'TXT', 1, ${content})`.execute(db);
  }
  await sql`insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values (1, 'caa', 'CAA', '0 issue "x"', 1, ${now}, ${now})`.execute(db);
  await up(db, dialect);
  for (const table of ['records', 'change_set_records']) {
    const { rows } = await sql<{ record_type: string; content: string }>`select record_type, content from ${sql.table(table)} order by id`.execute(db);
    const txt = rows.filter((r) => r.record_type === 'TXT');
    expect(txt.map((r) => r.content)).toEqual(CASES.map((c) => c[2]));
    // Every row still means the octets it meant before.
    txt.forEach((r, i) => expect(txtChunks(r.content).map((s) => Buffer.from(s).toString('utf8'))).toEqual(CASES[i]![1]));
    if (table === 'records') expect(rows.find((r) => r.record_type === 'CAA')!.content).toBe('0 issue "x"');
  }
}

describe('0010-txt-strings', () => {
  it('rewrites only content that the new rule would read differently', () => {
    for (const [before, , after] of CASES) expect(rewriteOldTxt(before) ?? before).toBe(after);
  });

  onBothStores('rewrites old TXT rows and history', check);
});
