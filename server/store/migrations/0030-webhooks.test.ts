/** Migration 0030 on both databases: a database from before it gains empty webhook tables, and a webhook with a delivery can be stored and read back. */
import { type Kysely, sql } from 'kysely';
import { describe, expect } from 'vitest';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, MIGRATIONS, type Dialect, type Step } from '../migrate';

async function check(db: Kysely<any>, dialect: Dialect) {
  const before: Record<string, Step> = {};
  for (const name of MIGRATIONS.filter((n) => n < '0030')) before[name] = await import(`./${name}.ts`);
  await migrate(db, dialect, before);
  const at = '2026-01-01T00:00:00.000Z';
  await sql`insert into users (username, password_hash, created_at) values ('u', 'x', ${at})`.execute(db);
  await migrate(db, dialect);
  expect((await sql`select count(*) as n from webhooks`.execute(db)).rows.map((r: any) => Number(r.n))).toEqual([0]);
  await sql`insert into webhooks (user_id, url, events, secret, created_at) values (1, 'https://hooks.example.net/x', '["zone.changed"]', 's', ${at})`.execute(db);
  await sql`insert into webhook_deliveries (webhook_id, event, event_id, zone, body, status, next_attempt_at, created_at)
            values (1, 'zone.changed', 'e1', 'example.com', '{}', 'pending', ${at}, ${at})`.execute(db);
  const hook = (await sql<Record<string, unknown>>`select team_id, zones, description, active from webhooks`.execute(db)).rows[0]!;
  expect({ ...hook, active: Number(hook.active) }).toEqual({ team_id: null, zones: null, description: '', active: 1 });
  expect((await sql`select status, attempts, lease_holder from webhook_deliveries`.execute(db)).rows).toEqual([{ status: 'pending', attempts: '[]', lease_holder: null }]);
}

describe('0030-webhooks', () => {
  onBothStores('adds the webhook tables, empty', check);
});
