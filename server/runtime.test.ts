/**
 * The runtime: the server runs on the Node that `npm install` brought (the package
 * node-<platform>-<arch> that package.json lists for this machine, Node 24), at least the
 * `engines` floor, and its listening line says which. A Node below the floor (whose Node-API the
 * SQLite addon needs) is refused with a message by the server and the CLI alike, before either
 * opens a database: such a Node crashed with a segmentation fault and nothing else.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { atLeast, NODE_FLOOR, unsupportedNode } from './launch';
import { startServer, tempDataDir, type ServerProcess } from './testing/server-process';

const ROOT = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; optionalDependencies?: Record<string, string> };

let server: ServerProcess | undefined;
afterAll(() => server?.stop());

describe('the runtime', () => {
  it('the server says in its listening line which Node runs it: the packaged one where package.json lists one for this machine, never below engines', async () => {
    server = await startServer();
    const listening = server.lines.map((l) => JSON.parse(l) as { msg?: string; node?: string }).find((l) => l.msg === 'listening');
    expect(listening?.node).toBe(process.versions.node);
    expect(atLeast(listening!.node!, pkg.engines.node)).toBe(true);
    const packaged = `node-${process.platform}-${process.arch}`;
    const declared = pkg.optionalDependencies?.[packaged];
    // Run by npm (npm test, npx vitest), the suite runs on the Node npm scripts run: npm installed it,
    // and its bin is `node` on their PATH. Run by another Node on purpose (`node scripts/test.mjs`
    // with that Node: docs/testing.md), the suite runs on that one.
    if (declared !== undefined && process.env.npm_lifecycle_event !== undefined) {
      expect(listening!.node).toBe(declared);
      expect(fs.realpathSync(process.execPath)).toBe(fs.realpathSync(path.join(ROOT, 'node_modules', packaged, 'bin', 'node')));
    }
  });

  it("engines names the launchers' floor", () => {
    expect(pkg.engines.node).toBe(`>=${NODE_FLOOR.version.replace(/\.0$/, '')}`);
  });

  it('refuses a Node below the floor or without its Node-API, naming both, and takes the floor and anything newer', () => {
    for (const [node, napi] of [
      ['22.12.0', '9'],
      ['22.13.1', '9'],
      ['20.20.2', '9'],
      ['23.3.0', '9'],
      ['22.18.0', '10'],
      ['22.19.0', undefined],
    ] as const) {
      const why = unsupportedNode({ node, napi });
      expect(why, node).toContain(`Node ${node} (Node-API ${napi ?? 'unknown'}) cannot run zonedeck`);
      expect(why).toContain('Node 22.19.0 or later with Node-API 10');
    }
    for (const [node, napi] of [
      ['22.19.0', '10'],
      ['22.23.5', '10'],
      ['24.21.0', '10'],
      ['25.1.0', '10'],
    ])
      expect(unsupportedNode({ node, napi }), node).toBeNull();
  });

  it('the built server and CLI on an older Node stop with that message (exit 2) and touch no database', () => {
    // The Node running the tests, made to say it is 22.12 (a preload; zonedeck itself has no such switch).
    const olderNode = 'data:text/javascript,Object.defineProperty(process, "versions", { value: { ...process.versions, node: "22.12.0", napi: "9" } })';
    const dataDir = tempDataDir();
    try {
      for (const launcher of ['build/server.js', 'build/cli.js']) {
        const run = spawnSync(process.execPath, ['--import', olderNode, path.join(ROOT, launcher), ...(launcher.endsWith('cli.js') ? ['ips', 'list', 'alice'] : [])], {
          env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DNS_PORT: 'off' },
          encoding: 'utf8',
          timeout: 30_000,
        });
        expect(run.status, `${launcher}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toBe(`zonedeck: ${unsupportedNode({ node: '22.12.0', napi: '9' })}\n`);
        expect(run.stdout).toBe('');
      }
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
