// Builds the SPA into dist/ when it is missing or older than its sources (npm start, npm test).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'dist', 'index.html');

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

if (!existsSync(join(root, 'web', 'index.html'))) process.exit(0);
const sources = Math.max(newest(join(root, 'web')), newest(join(root, 'server', 'core')), statSync(join(root, 'vite.config.ts')).mtimeMs);
if (existsSync(out) && statSync(out).mtimeMs >= sources) process.exit(0);
const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
