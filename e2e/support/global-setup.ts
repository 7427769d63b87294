/**
 * Once per Playwright run: make sure Chromium and dig exist (fail loudly, never skip), build
 * the SPA and the server where they are stale, and start this run's own server (HTTP and DNS on
 * free ports) with a temp DATA_DIR.
 * The returned function stops that server by its pid.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH } from '../../playwright.config';
import { startServer, tempDataDir } from '../../server/testing/server-process';
import type { ServerInfo } from './server-info';
import { buildServer } from '../../scripts/build-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}. The end-to-end tests need one: install it with \`apt-get install chromium\` (Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium binary. \`npx playwright install\` is not needed.`,
    );
  }
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-web-if-needed.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building the SPA (vite build) failed');
  // The server as `npm start` runs it.
  await buildServer();

  if (spawnSync('dig', ['-v']).error) {
    throw new Error('No `dig`: the end-to-end tests check records with real DNS queries. Install it with `apt-get install bind9-dnsutils`.');
  }

  const dataDir = tempDataDir();
  // DNS on a free port too: record changes are checked with `dig` as well as through the API.
  const server = await startServer({ LOG_LEVEL: 'info', DNS_PORT: '0' }, dataDir);
  if (!server.adminPassword) throw new Error('the server did not print the first admin password');
  const info: ServerInfo = { url: server.url, dataDir, pid: server.child.pid!, adminPassword: server.adminPassword, dnsPort: server.dnsPort };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-e2e-')), 'server.json');
  fs.writeFileSync(file, JSON.stringify(info));
  process.env.ZONEDECK_E2E_SERVER = file;

  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  };
}
