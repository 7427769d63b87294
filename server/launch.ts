/**
 * What the launchers build/server.js and build/cli.js (scripts/build-server.mjs) do before they
 * import their bundle: refuse a Node zonedeck cannot run on, with a message, then turn Node's compile
 * cache on (compile-cache.ts).
 *
 * The floor is Node 22.19 with Node-API 10, the oldest Node the whole test suite passes on. Below it:
 * the SQLite addon (better-sqlite3, a prebuilt Node-API binary) is built for Node-API 10, which Node
 * has from 22.14, and on 22.12 and 22.13 it loads and then kills the process with a segmentation
 * fault at the first database it opens, saying nothing; the UDP sockets of the DNS threads need
 * `reusePort` (22.12); and the tests use what 22.19 brought (TypeScript run as it is in the threads
 * they start from source, `tls.setDefaultCACertificates`), so 22.14 to 22.18 would run untested.
 * package.json's `engines` says the same floor (server/runtime.test.ts holds them together).
 */
import { turnOnCompileCache } from './compile-cache';

export const NODE_FLOOR = { version: '22.19.0', nodeApi: 10 };

/** Whether version `v` (major.minor.patch; a leading ">=" ignored, missing parts 0) is `floor` or later. */
export function atLeast(v: string, floor: string): boolean {
  const parts = (x: string) =>
    x
      .replace(/^>=/, '')
      .split('.')
      .map((n) => Number.parseInt(n, 10) || 0);
  const [a, b] = [parts(v), parts(floor)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** Why this Node cannot run zonedeck, or null when it can. */
export function unsupportedNode(versions: { node: string; napi?: string } = process.versions): string | null {
  if (atLeast(versions.node, NODE_FLOOR.version) && Number(versions.napi ?? 0) >= NODE_FLOOR.nodeApi) return null;
  return (
    `Node ${versions.node} (Node-API ${versions.napi ?? 'unknown'}) cannot run zonedeck: it needs Node ${NODE_FLOOR.version} or later with Node-API ${NODE_FLOOR.nodeApi} ` +
    `(its SQLite addon needs Node-API 10 and crashes an older Node; ${NODE_FLOOR.version} is the oldest its tests pass on). On Linux, \`npm install\` brings Node 24 into node_modules/.bin/node, which \`npm start\` and \`npm run cli\` run; elsewhere install Node 24 LTS.`
  );
}

/** Stops the process with the reason (exit code 2, as a configuration error) when this Node cannot run zonedeck; else turns the compile cache on. */
export function launch(): void {
  const problem = unsupportedNode();
  if (problem) {
    process.stderr.write(`zonedeck: ${problem}\n`);
    process.exit(2);
  }
  turnOnCompileCache();
}
