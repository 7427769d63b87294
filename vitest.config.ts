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
    // Tests that start the server as a process run the build of it (server/testing/server-process.ts).
    globalSetup: ['server/testing/vitest-setup.ts'],
    projects: [
      { test: { ...base, name: 'sqlite', include: ['server/**/*.test.ts', 'web/**/*.test.ts', 'bench/**/*.test.ts'] } },
      ...(postgres
        ? [{ test: { ...base, name: 'postgres', include: ['server/api/**/*.test.ts', 'server/bff/oidc.test.ts', 'server/pdns/**/{shapes,zones,rrsets,cryptokeys,scope,comments,zone-attributes,tsigkeys,search-data,zone-create,tsig-key-ids}.test.ts'], env: { ZONEDECK_TEST_POSTGRES: postgres } } }]
        : []),
    ],
  },
});
