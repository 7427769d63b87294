/**
 * The TXT escape migration on both databases: raw text rows become escaped content that
 * stands for the same octets, other types and already-plain text are left alone.
 */
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { txtChunks } from '../../core/record-types';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, type Dialect } from '../migrate';
import { escapeRawTxt, up } from './0006-txt-escapes';
import { up as up0010 } from './0010-txt-strings';

const raw = ['v=spf1 -all', 'C:\\path\\file', 'tab\there', 'line\nbreak', 'del\x7f', 'café ünïcode', '"quoted"', 'ends in \\'];

async function check(db: Kysely<any>, dialect: Dialect) {
  await migrate(db, dialect);
  const now = '2024-01-01T00:00:00.000Z';
  await sql`insert into users (username, password_hash, created_at) values ('u', 'x', ${now})`.execute(db);
  await sql`insert into domains (user_id, name, serial_number, refresh_interval, retry_interval, expire_interval, minimum_ttl, created_at, updated_at)
            values (1, 'example.com', 1, 1, 1, 1, 1, ${now}, ${now})`.execute(db);
  for (const [i, content] of raw.entries()) {
    await sql`insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values (1, ${`t${i}`}, 'TXT', ${content}, 1, ${now}, ${now})`.execute(db);
  }
  await sql`insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values (1, 'caa', 'CAA', '0 issue "a\\b"', 1, ${now}, ${now})`.execute(db);
  await up(db, dialect);
  // 0010 then gives the quoted-looking row the quoted form of its old octets.
  await up0010(db, dialect);
  const { rows } = await sql<{ name: string; record_type: string; content: string }>`select name, record_type, content from records order by id`.execute(db);
  expect(rows.map((r) => r.content)).toEqual(['v=spf1 -all', 'C:\\\\path\\\\file', 'tab\\009here', 'line\\010break', 'del\\127', 'café ünïcode', '"\\"quoted\\""', 'ends in \\\\', '0 issue "a\\b"']);
  // Each row still means the octets of its old raw text.
  rows.slice(0, raw.length).forEach((r, i) => expect(Buffer.concat(txtChunks(r.content)).toString('utf8')).toBe(raw[i]));
}

describe('0006-txt-escapes', () => {
  it('escapes backslashes and control characters only', () => {
    expect(escapeRawTxt('a\\b\x00c\x1fd\x7fe é "f"')).toBe('a\\\\b\\000c\\031d\\127e é "f"');
  });

  onBothStores('rewrites old TXT rows', check);
});
