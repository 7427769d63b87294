/**
 * An install from before the first sign-in asked for a new password: admin still has the generated
 * one (its file is still in DATA_DIR), and the next start has the dashboard ask for a new one.
 */
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { openStore } from '../../store/open';
import { startServer, tempDataDir, type ServerProcess } from '../../testing/server-process';
import { hashPassword } from './secrets';

const dataDir = tempDataDir();
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const signIn = async (password: string) => {
  const res = await fetch(`${server!.url}/bff/sign-in`, {
    method: 'POST',
    headers: { origin: server!.url, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { password_change_required: boolean }).password_change_required;
};

it('asks admin for a new password at the next start while the generated one is still in its file', async () => {
  server = await startServer({ DNS_PORT: 'off' }, dataDir);
  const password = server.adminPassword!;
  await server.stop();
  // As the version before left it: the same password, and nothing asking for a change.
  const store = await openStore(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  const admin = (await store.users.byUsername('admin'))!;
  await store.users.setPassword(admin.id, await hashPassword(password), false);
  expect(await store.users.mustChangePassword(admin.id)).toBe(false);
  await store.close();

  server = await startServer({ DNS_PORT: 'off' }, dataDir);
  expect(await signIn(password)).toBe(true);
});
