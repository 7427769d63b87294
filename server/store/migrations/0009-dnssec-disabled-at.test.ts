/**
 * Migration 0009 on both databases: an unsigned zone whose history shows DNSSEC turned off gets
 * the time of the last such change set (the delete form is then published for what is left of
 * its week); a signed zone and a never-signed one get none.
 */
import { type Kysely, sql } from 'kysely';
import { describe, expect } from 'vitest';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, type Dialect } from '../migrate';
import { backfill } from './0009-dnssec-disabled-at';

async function check(db: Kysely<any>, dialect: Dialect) {
  await migrate(db, dialect);
  const at = (d: string) => `2026-01-0${d}T00:00:00.000Z`;
  await sql`insert into users (username, password_hash, created_at) values ('u', 'x', ${at('1')})`.execute(db);
  for (const [name, signed] of [
    ['off.example', 0],
    ['on.example', 1],
    ['never.example', 0],
  ] as const) {
    await sql`insert into domains (user_id, name, serial_number, refresh_interval, retry_interval, expire_interval, minimum_ttl, dnssec_enabled, created_at, updated_at)
              values (1, ${name}, 1, 1, 1, 1, 1, ${signed}, ${at('1')}, ${at('1')})`.execute(db);
  }
  const change = (domain: number, created: string, settings: object) =>
    sql`insert into change_sets (domain_id, serial_before, serial_after, created_at, source, actor_username, actor_credential, settings, added_count, removed_count)
        values (${domain}, 1, 2, ${created}, 'api', 'u', 'cli', ${JSON.stringify(settings)}, 0, 0)`.execute(db);
  await change(1, at('2'), { dnssec_enabled: [true, false] });
  await change(1, at('3'), { dnssec_enabled: [false, true] });
  await change(1, at('4'), { minimum_ttl: [1, 60], dnssec_enabled: [true, false] });
  await change(2, at('5'), { dnssec_enabled: [true, false] });
  await change(2, at('6'), { dnssec_enabled: [false, true] });
  await change(3, at('7'), { minimum_ttl: [1, 60] });
  await backfill(db);
  const { rows } = await sql<{ name: string; dnssec_disabled_at: string | null }>`select name, dnssec_disabled_at from domains order by id`.execute(db);
  expect(rows).toEqual([
    { name: 'off.example', dnssec_disabled_at: at('4') },
    { name: 'on.example', dnssec_disabled_at: null },
    { name: 'never.example', dnssec_disabled_at: null },
  ]);
}

describe('0009-dnssec-disabled-at', () => {
  onBothStores('finds when DNSSEC went off in the history', check);
});
