// Compiles the server and its DNS thread into build/ (npm start, npm test, npm run bench) when
// the build is missing or older than its sources: one ES module each, with source maps, the
// packages left in node_modules. It takes under a second.
//
// Why not run the TypeScript through tsx, as the CLI does: tsx compiles with esbuild's keepNames,
// which wraps every function that is created in a call that sets its name. A record write creates
// dozens of closures, and these calls cost ~5% of the CPU of a write under load (profile, issue 16).
// Built, a record write took ~10% less CPU (6 interleaved runs on one core: 249–287 µs against
// 287–320 µs) and the server answered 2–15% more writes per second.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { isFresh } from './freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = ['server', 'tsconfig.json', fileURLToPath(import.meta.url)].map((p) => join(root, p));

export async function buildServer() {
  if (['server.js', 'dns-worker.js', 'cli.js'].every((f) => isFresh(join(root, 'build', f), sources))) return;
  await esbuild.build({
    absWorkingDir: root,
    // server/dns/thread.ts starts build/dns-worker.js beside build/server.js.
    // The admin CLI too: the tests run it hundreds of times, and built it starts in a fraction of
    // tsx's 2–4 s here (`npm run cli` keeps running the sources through tsx).
    entryPoints: { server: 'server/main.ts', 'dns-worker': 'server/dns/worker.ts', cli: 'server/cli/main.ts' },
    outdir: 'build',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
