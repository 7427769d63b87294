/**
 * `npm run test:fast`: the unit tests of the rules and the storage (server/core, server/services,
 * server/store) and of the dashboard's logic (web), with no server process, no HTTP server and no
 * DNS server asked; under a minute on two cores. The rule is the room: a test there is fast, and
 * one that needs more is named `*.int.test.ts` (docs/testing.md). Every file here runs in the whole
 * suite too (vitest.config.ts); this tier leaves the rest out and builds nothing.
 */
import os from 'node:os';
import { defineConfig } from 'vitest/config';

export const FAST_TESTS = ['server/core/**/*.test.ts', 'server/services/**/*.test.ts', 'server/store/**/*.test.ts', 'web/**/*.test.ts'];
export const NOT_FAST = '**/*.int.test.ts';

// The PostgreSQL store's own tests need a cluster; without one they are left out, and said so (the
// migration tests skip their PostgreSQL half by themselves).
const postgres = process.env.TEST_DATABASE_URL;
if (!postgres) console.warn('test:fast: TEST_DATABASE_URL is not set, so the PostgreSQL store (server/store/postgres) is not tested');

export default defineConfig({
  test: {
    include: FAST_TESTS,
    exclude: ['**/node_modules/**', NOT_FAST, ...(postgres ? [] : ['server/store/postgres/**'])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: Math.max(2, os.availableParallelism()),
    // Threads that keep their modules from one file to the next: most of these files' time was
    // importing the same server modules again. So a file puts back what it changes (the options
    // below do for mocks, stubbed globals and environment).
    pool: 'threads',
    isolate: false,
    restoreMocks: true,
    unstubGlobals: true,
    unstubEnvs: true,
    // startServer refuses to run under it: a test that starts the server is not a fast one.
    env: { ZONEDECK_TEST_TIER: 'fast' },
    globalSetup: ['server/testing/test-run.ts'],
  },
});
