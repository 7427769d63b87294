// `npm test`: the whole suite from a fresh Debian machine. Installs the system tools the tests
// use (or says how), starts a local PostgreSQL for the second run of the API tests, then runs
// typecheck, lint, vitest, the SPA build and Playwright in order, stopping at the first failure.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { testDatabaseUrl } from './test-setup/postgres.mjs';
import { ensureSystemTools, requiredTools } from './test-setup/system-tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// vitest and Playwright run in this Node (under npm: node_modules/.bin/node, the packaged Node 24),
// and so does every server they start (process.execPath), whichever `node` comes first on PATH.
const tool = (file, ...args) => [process.execPath, [join(root, 'node_modules', ...file.split('/')), ...args]];

ensureSystemTools(requiredTools({ postgres: !process.env.TEST_DATABASE_URL }));
const env = { ...process.env, TEST_DATABASE_URL: await testDatabaseUrl(root) };

const steps = [
  ['npm', ['run', 'typecheck']],
  // The layers of the layering (docs/architecture.md) and a few real-mistake rules (eslint.config.js).
  ['npm', ['run', 'lint']],
  tool('vitest/vitest.mjs', 'run'),
  [process.execPath, [join(root, 'scripts', 'build-web-if-needed.mjs')]],
  tool('@playwright/test/cli.js', 'test'),
];
for (const [cmd, args] of steps) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (r.status !== 0) {
    const why = r.error ? r.error.message : r.signal ? `signal ${r.signal}` : `exit ${r.status}`;
    const shown = [cmd === process.execPath ? 'node' : cmd, ...args].map((a) => (a.startsWith(root) ? a.slice(root.length) : a));
    console.error(`npm test: \`${shown.join(' ')}\` failed (${why})`);
    process.exit(r.status || 1);
  }
}
