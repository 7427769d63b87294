// `npm test`: the whole suite from a fresh Debian machine. Installs the system tools the tests
// use (or says how), starts a local PostgreSQL for the second run of the API tests, then runs
// typecheck, lint, vitest, the SPA build and Playwright in order, stopping at the first failure.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { testDatabaseUrl } from './test-setup/postgres.mjs';
import { ensureSystemTools, requiredTools } from './test-setup/system-tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);

ensureSystemTools(requiredTools({ postgres: !process.env.TEST_DATABASE_URL }));
const env = { ...process.env, TEST_DATABASE_URL: await testDatabaseUrl(root) };

const steps = [
  ['npm', ['run', 'typecheck']],
  // The layers of the layering (docs/architecture.md) and a few real-mistake rules (eslint.config.js).
  ['npm', ['run', 'lint']],
  [bin('vitest'), ['run']],
  [process.execPath, [join(root, 'scripts', 'build-web-if-needed.mjs')]],
  [bin('playwright'), ['test']],
];
for (const [cmd, args] of steps) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (r.status !== 0) {
    const why = r.error ? r.error.message : r.signal ? `signal ${r.signal}` : `exit ${r.status}`;
    console.error(`npm test: \`${[cmd.startsWith(root) ? cmd.slice(root.length) : cmd, ...args].join(' ')}\` failed (${why})`);
    process.exit(r.status || 1);
  }
}
