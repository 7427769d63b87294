/**
 * Migration 0022 on both databases: memberships made before it stay exactly as they were (nobody
 * has to accept them again), and a team holds one pending invitation per username.
 */
import { type Kysely, sql } from 'kysely';
import { describe, expect } from 'vitest';
import { onBothStores } from '../../testing/migration-dbs';
import { migrate, MIGRATIONS, type Dialect, type Step } from '../migrate';

async function check(db: Kysely<any>, dialect: Dialect) {
  const before: Record<string, Step> = {};
  for (const name of MIGRATIONS.filter((n) => n < '0022')) before[name] = await import(`./${name}.ts`);
  await migrate(db, dialect, before);
  const at = '2026-01-01T00:00:00.000Z';
  for (const u of ['olivia', 'edith']) await sql`insert into users (username, password_hash, created_at) values (${u}, 'x', ${at})`.execute(db);
  await sql`insert into teams (name, created_at) values ('crew', ${at})`.execute(db);
  await sql`insert into team_members (team_id, user_id, role, created_at) values (1, 1, 'owner', ${at}), (1, 2, 'editor', ${at})`.execute(db);
  const members = sql<{ id: number; team_id: number; user_id: number; role: string; created_at: string }>`select id, team_id, user_id, role, created_at from team_members order by id`;
  const was = (await members.execute(db)).rows;

  await migrate(db, dialect);
  expect((await members.execute(db)).rows).toEqual(was);
  expect(was.map((m) => m.role)).toEqual(['owner', 'editor']);
  const invite = (username: string, userId: number | null) =>
    sql`insert into team_invitations (team_id, username, user_id, role, invited_by, created_at) values (1, ${username}, ${userId}, 'viewer', 'olivia', ${at})`.execute(db);
  await invite('carol', null);
  await invite('ghost', null);
  // Refused by the unique index, on SQLite and on PostgreSQL in their words (not by any error at all).
  await expect(invite('carol', null)).rejects.toThrow(/UNIQUE constraint failed: team_invitations|duplicate key value violates unique constraint/);
  expect(Number((await sql<{ n: number | string }>`select count(*) as n from team_invitations`.execute(db)).rows[0]!.n)).toBe(2);
}

describe('0022-team-invitations', () => {
  onBothStores('keeps the memberships there were, and one invitation per team and name', check);
});
