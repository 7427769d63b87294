/**
 * Upgrades, with the built server: a database written by an older zonedeck is migrated at start
 * and keeps its zones; one written by a newer zonedeck (a migration this code does not know) is
 * refused, by the server, by the CLI and by restore, with a message saying what to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from './store/migrate';
import * as initial from './store/migrations/0001-initial';
import { cli, runCli, startServer, tempDataDir } from './testing/server-process';

const NEWER = /this database was written by a newer zonedeck: migration 9999-from-the-future is unknown; upgrade zonedeck or restore a backup/;

describe('upgrades', () => {
  it('migrates a database of the first version at start, zones and all, and /readyz shows the new schema', async () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'zonedeck.db');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    await migrate(db, 'sqlite', { '0001-initial': initial });
    const now = new Date().toISOString();
    await db.insertInto('users').values({ username: 'alice', password_hash: 'x', created_at: now }).execute();
    await db
      .insertInto('domains')
      .values({
        user_id: 1,
        name: 'old.example',
        serial_number: 2024010100,
        refresh_interval: 10800,
        retry_interval: 3600,
        expire_interval: 1209600,
        minimum_ttl: 3600,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db.insertInto('records').values({ domain_id: 1, name: 'www', record_type: 'A', content: '192.0.2.7', ttl: 300, created_at: now, updated_at: now }).execute();
    await db.destroy();

    const server = await startServer({}, dir);
    try {
      expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready', schema_version: MIGRATIONS.at(-1) });
      expect(cli(dir, 'zones', 'export', 'old.example').join('\n')).toMatch(/^www\s+300\s+IN\s+A\s+192\.0\.2\.7$/m);
    } finally {
      await server.stop();
    }
  });

  it('refuses to start on a database written by a newer zonedeck, and so do the CLI and restore', async () => {
    const dir = tempDataDir();
    cli(dir, 'users', 'add', 'alice', '--init');
    const db = new Database(path.join(dir, 'zonedeck.db'));
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('9999-from-the-future', new Date().toISOString());
    db.close();
    const before = fs.readFileSync(path.join(dir, 'zonedeck.db'));

    await expect(startServer({}, dir)).rejects.toThrow(NEWER);
    const res = await runCli(dir, ['users', 'add', 'bob']);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(NEWER);
    // Nothing was touched: not a migration, not a user.
    expect(fs.readFileSync(path.join(dir, 'zonedeck.db')).equals(before)).toBe(true);

    // Its backup can be taken (backup migrates nothing), but not restored by this zonedeck.
    const backupFile = path.join(tempDataDir(), 'future.db');
    expect((await runCli(dir, ['backup', backupFile])).status).toBe(0);
    const target = path.join(tempDataDir(), 'data');
    const restore = await runCli(target, ['restore', backupFile]);
    expect(restore.stderr).toMatch(NEWER);
    expect(fs.existsSync(path.join(target, 'zonedeck.db'))).toBe(false);
  });
});
