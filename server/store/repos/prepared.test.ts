/**
 * Prepared queries: compiled once per dialect and shape, run with the arguments of each call
 * bound where the placeholders were, beside the constants the query itself holds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import Database from 'better-sqlite3';
import { kyselyRunner, Prepared, preparedRunner } from './prepared';
import type { Database as Schema } from '../schema';

let db: Kysely<Schema>;
beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-prep-'));
  const raw = new Database(path.join(dir, 'p.db'));
  raw.exec("create table users (id integer primary key, username text, password_hash text, created_at text); insert into users values (1, 'ann', 'x', 'a'), (2, 'bob', 'y', 'b'), (3, 'cy', 'x', 'c')");
  db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: raw }) });
});
afterAll(() => db.destroy());

describe('prepared queries', () => {
  it('binds each call’s arguments in place, keeping the constants of the query', async () => {
    const q = new Prepared((k, a, n: number) =>
      k
        .selectFrom('users')
        .select('username')
        .where('password_hash', '=', 'x')
        .where(
          'id',
          'in',
          Array.from({ length: n }, (_, i) => a(i)),
        )
        .orderBy('id'),
    );
    const p = preparedRunner(db, 'sqlite', kyselyRunner(db));
    expect(await p.rows(q, [1, 2, 3], 3)).toEqual([{ username: 'ann' }, { username: 'cy' }]);
    expect(await p.rows(q, [2], 1)).toEqual([]);
    expect(await p.first(q, [3, 1], 2)).toEqual({ username: 'ann' });
    expect(q.template(db, 'sqlite', 2).sql).toBe('select "username" from "users" where "password_hash" = ? and "id" in (?, ?) order by "id"');
  });

  it('reports the id of the row an INSERT made, without RETURNING on SQLite', async () => {
    const q = new Prepared((k, a) => k.insertInto('users').values({ username: a(0), password_hash: 'z', created_at: 'd' }));
    const p = preparedRunner(db, 'sqlite', kyselyRunner(db));
    expect(q.template(db, 'sqlite', undefined as never).sql).not.toMatch(/returning/i);
    const first = await p.insert(q, ['dee']);
    expect(await p.insert(q, ['eve'])).toBe(first + 1);
    expect(await p.rows(new Prepared((k, a) => k.selectFrom('users').select('username').where('id', '=', a(0))), [first])).toEqual([{ username: 'dee' }]);
  });
});
