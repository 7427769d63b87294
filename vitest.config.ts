import os from 'node:os';
import { defineConfig } from 'vitest/config';

const base = { testTimeout: 30_000, hookTimeout: 60_000 };
// With TEST_DATABASE_URL (CI sets it), the API tests (zonedeck's and the PowerDNS-compatible one) run a second time on PostgreSQL.
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one on a 2-core machine. Most files wait on
    // a real server, dig or a database rather than compute, so every core runs a file.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // The run's id and its PostgreSQL databases' drop; then the build of the server, which the
    // tests that start it as a process run (server/testing/server-process.ts). The fast tier, a
    // part of these tests: vitest.fast.config.ts (docs/testing.md).
    globalSetup: ['server/testing/test-run.ts', 'server/testing/vitest-setup.ts'],
    projects: [
      { test: { ...base, name: 'sqlite', include: ['server/**/*.test.ts', 'web/**/*.test.ts', 'bench/**/*.test.ts'] } },
      ...(postgres
        ? [
            {
              test: {
                ...base,
                name: 'postgres',
                include: [
                  'server/api/**/*.test.ts',
                  'server/bff/oidc.test.ts',
                  'server/pdns/**/{shapes,zones,rrsets,cryptokeys,scope,comments,zone-attributes,tsigkeys,search-data,zone-create,tsig-key-ids}.test.ts',
                ],
                env: { ZONEDECK_TEST_POSTGRES: postgres },
              },
            },
          ]
        : []),
    ],
  },
});
