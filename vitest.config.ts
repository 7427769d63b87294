import os from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take minutes, longest first. A fresh clone has no record of how long each file
 * took, and vitest then starts the largest files first: these are small (they mostly wait, on key
 * rollovers' TTLs or on a database kept down), so they started last and the whole run waited for
 * them alone at its end. Started first, they wait beside the rest.
 */
const SLOW_FIRST = ['rollover-algorithm.int', 'rollover-csk.int', 'crash-atomicity.int', 'database-outage', 'every-route.property', 'import-bombs'];
const slowRank = (spec: TestSpecification) => {
  const at = SLOW_FIRST.findIndex((name) => spec.moduleId.endsWith(`/${name}.test.ts`));
  return at < 0 ? SLOW_FIRST.length : at;
};

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Within each project, in the order vitest gave them, the slow ones first (a stable sort).
    const projects = [...new Set(sorted.map((f) => f.project.name))];
    return projects.flatMap((name) =>
      sorted
        .filter((f) => f.project.name === name)
        .map((f, i) => ({ f, i }))
        .sort((a, b) => slowRank(a.f) - slowRank(b.f) || a.i - b.i)
        .map(({ f }) => f),
    );
  }
}

const base = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // A worker keeps its modules from one file to the next: importing the server's modules again
  // for every file was a third of the suite's CPU (the API files ran in 108 s with a fresh module
  // graph each, in 40 s without). So a file puts back what it changes: the options below do for
  // mocks, stubbed globals and environment, and a test's own servers, apps and databases are
  // closed in its afterAll/finally.
  isolate: false,
  restoreMocks: true,
  unstubGlobals: true,
  unstubEnvs: true,
};
// With TEST_DATABASE_URL (CI sets it), the API tests (zonedeck's and the PowerDNS-compatible one) run a second time on PostgreSQL.
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one on a 2-core machine. Most files wait on
    // a real server, dig or a database rather than compute, and the two key-rollover files wait
    // minutes on TTLs holding a worker each, so two files more than the cores run at once.
    maxWorkers: os.availableParallelism() + 2,
    // The run's id and its PostgreSQL databases' drop; then the build of the server, which the
    // tests that start it as a process run (server/testing/server-process.ts). The fast tier, a
    // part of these tests: vitest.fast.config.ts (docs/testing.md).
    globalSetup: ['server/testing/test-run.ts', 'server/testing/vitest-setup.ts'],
    sequence: { sequencer: SlowFirst },
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
