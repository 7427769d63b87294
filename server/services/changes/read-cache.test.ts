/** The read cache never serves what another connection or this process has changed since. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { openStore } from '../../store/open';
import type { Store } from '../../store/types';
import { servicesFor, type Services } from '..';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

let dir: string;
let store: Store;
let services: Services;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-cache-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  store = await openStore(config);
  services = servicesFor(store, config);
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('read cache', () => {
  it('refuses a token revoked by another connection (the CLI) at the next request', async () => {
    const { user } = await services.accounts.addUser('alice');
    const { row, token } = await services.accounts.createToken(user.id, 'x');
    expect(await services.accounts.authenticate(token)).not.toBeNull();
    expect(await services.accounts.authenticate(token)).not.toBeNull();
    const other = new Database(path.join(dir, 'zonedeck.db'));
    other.prepare('delete from tokens where id = ?').run(row.id);
    other.close();
    // The next request: the server reads each in a later turn of its event loop than the last one's.
    await nextTurn();
    expect(await services.accounts.authenticate(token)).toBeNull();
  });

  it('refuses a token revoked in this process at once, and serves IP lists fresh after a change', async () => {
    const { user } = await services.accounts.addUser('bob');
    const { row, token } = await services.accounts.createToken(user.id, 'x');
    await services.accounts.authenticate(token);
    await services.accounts.revokeToken(row.id);
    expect(await services.accounts.authenticate(token)).toBeNull();

    const w = { offset: 0, limit: 50 };
    expect((await services.ips.page(user.id, w)).total).toBe(0);
    await services.ips.add(user.id, '192.0.2.1');
    expect((await services.ips.page(user.id, w)).rows.map((r) => r.address)).toEqual(['192.0.2.1']);
    const other = new Database(path.join(dir, 'zonedeck.db'));
    other.prepare("insert into ips (user_id, address, cidr, active, created_at) values (?, '192.0.2.2', 32, 1, '')").run(user.id);
    other.close();
    await nextTurn();
    expect((await services.ips.page(user.id, w)).total).toBe(2);
  });
});
