// Compiles the server and its DNS thread into build/ (npm start, npm test, npm run bench) when
// the build is missing or older than its sources: one ES module each, with source maps and
// their packages (see below). It takes a second or two.
//
// Why not run the TypeScript through tsx, as the CLI does: tsx compiles with esbuild's keepNames,
// which wraps every function that is created in a call that sets its name. A record write creates
// dozens of closures, and these calls cost ~5% of the CPU of a write under load (profile).
// Built, a record write took ~10% less CPU (6 interleaved runs on one core: 249–287 µs against
// 287–320 µs) and the server answered 2–15% more writes per second.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { isFresh } from './freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The CLI's build holds its packages too (below), so a changed lockfile makes it again. (resolve, not
// join: join would put root in front of this script's absolute path, a file that is never there.)
const sources = ['server', 'tsconfig.json', 'package-lock.json', fileURLToPath(import.meta.url)].map((p) => resolve(root, p));

export async function buildServer() {
  if ([...BUNDLES, ...Object.keys(LAUNCHERS)].every((f) => isFresh(join(root, 'build', f), sources))) return;
  const common = {
    absWorkingDir: root,
    outdir: 'build',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: true,
    logLevel: 'warning',
  };
  // The server, its DNS thread (server/dns/sync/thread.ts starts build/dns-worker.js beside
  // build/server-main.js), the DNS thread's UDP threads (build/dns-udp.js) and the admin CLI, each with its packages bundled into it: resolving and
  // loading them one module at a time from node_modules was most of a start. The CLI first
  // (the tests run it hundreds of times, each Playwright test twice, to make its user, and `npm
  // run cli` runs it too): ~1.4 s of CPU on this 2-core machine through tsx, against
  // ~0.5 s bundled. The server's main thread took 1.7 s to load its modules before the DNS thread
  // could even start, and the DNS thread 0.75 s more, before a zone was read (profile of a
  // start). better-sqlite3 stays outside (a native addon), and pg's optional
  // pg-native, which pg asks for only when told to. The CommonJS packages inside an ES module
  // need a `require` for Node's built-in modules.
  await esbuild.build({
    ...common,
    entryPoints: {
      'server-main': 'server/main.ts',
      'dns-worker': 'server/dns/sync/worker.ts',
      'dns-udp': 'server/dns/wire/udp-thread.ts',
      'cli-main': 'server/cli/main.ts',
      launch: 'server/launch.ts',
    },
    external: ['better-sqlite3', 'pg-native'],
    banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  });
  for (const file of BUNDLES) asciiOnly(join(root, 'build', file));
  for (const [file, bundle] of Object.entries(LAUNCHERS)) writeFileSync(join(root, 'build', file), launcher(bundle));
}

/** What esbuild writes into build/. */
export const BUNDLES = ['server-main.js', 'dns-worker.js', 'dns-udp.js', 'cli-main.js', 'launch.js'];
/** The files Node is asked to run (`npm start`, `npm run cli`), each the launcher of its bundle. */
const LAUNCHERS = { 'server.js': 'server-main.js', 'cli.js': 'cli-main.js' };

/**
 * A launcher (server/launch.ts) refuses, with a message, a Node zonedeck cannot run on, and turns on
 * Node's compile cache (server/compile-cache.ts: V8's compiled code of the bundle kept between runs,
 * in a directory of this user's own), both before its bundle loads, hence a file of its own; the DNS
 * thread and the UDP threads find the cache's directory in the environment.
 */
const launcher = (bundle) => `// Made by scripts/build-server.mjs: a Node too old refused, Node's compile cache on, then ${bundle}.
import { launch } from './launch.js';
launch();
await import('./${bundle}');
`;

/**
 * Makes a bundle pure ASCII. esbuild escapes every non-ASCII character in code, but not in the
 * comments it keeps ("RFC 1035 §2.3.1", an em dash); one such character anywhere makes V8 hold the
 * whole source as a two-byte string, for as long as the process runs: the server's 4.6 MB bundle
 * took 9.2 MB of the main thread's heap. Each is replaced by '?', one UTF-16 unit for one, so that
 * the source map's columns still hold; and the bundle minified with and without the change must be
 * the same program, so a character outside a comment fails the build instead of changing it.
 */
export function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  const ascii = text.replace(/[^\x00-\x7f]/g, '?');
  const program = (code) => esbuild.transformSync(code, { minify: true, format: 'esm', platform: 'node', legalComments: 'none', target: `node${process.versions.node}` }).code;
  if (program(ascii) !== program(text)) throw new Error(`${file}: a non-ASCII character outside a comment (esbuild escapes those in code): look at what the bundle holds`);
  writeFileSync(file, ascii);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
