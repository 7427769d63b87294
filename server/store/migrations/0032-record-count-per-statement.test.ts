/** Migration 0032 on both databases: each zone's record count follows statements that insert or delete the records of several zones at once. */
import { type Kysely, sql } from 'kysely';
import { describe, expect } from 'vitest';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, MIGRATIONS, type Dialect, type Step } from '../migrate';

async function check(db: Kysely<any>, dialect: Dialect) {
  const before: Record<string, Step> = {};
  for (const name of MIGRATIONS.filter((n) => n < '0032')) before[name] = await import(`./${name}.ts`);
  await migrate(db, dialect, before);
  const at = '2026-01-01T00:00:00.000Z';
  await sql`insert into users (username, password_hash, created_at) values ('u', 'x', ${at})`.execute(db);
  for (const name of ['a.example', 'b.example']) {
    await sql`insert into domains (user_id, name, serial_number, refresh_interval, retry_interval, expire_interval, minimum_ttl, created_at, updated_at)
              values (1, ${name}, 1, 3600, 600, 86400, 300, ${at}, ${at})`.execute(db);
  }
  const row = (domain: number, i: number) => sql`(${domain}, ${`h${i}`}, 'A', ${`192.0.2.${i}`}, 300, ${at}, ${at})`;
  // Counted by the triggers of before: one record, kept across the migration.
  await sql`insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values ${row(1, 0)}`.execute(db);
  await migrate(db, dialect);
  const counts = async () => (await sql<{ name: string; record_count: number }>`select name, record_count from domains order by id`.execute(db)).rows.map((r) => [r.name, Number(r.record_count)]);
  // One statement, two zones' records.
  await sql`insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values ${sql.join([row(1, 1), row(1, 2), row(2, 1), row(1, 3), row(2, 2)])}`.execute(db);
  expect(await counts()).toEqual([
    ['a.example', 4],
    ['b.example', 2],
  ]);
  await sql`delete from records where name in ('h1', 'h2')`.execute(db);
  expect(await counts()).toEqual([
    ['a.example', 2],
    ['b.example', 0],
  ]);
}

describe('0032-record-count-per-statement', () => {
  onBothStores('counts each zone once per statement, inserts and deletes alike', check);
});
