// Builds the SPA into dist/ when it is missing or older than its sources (npm start, npm test).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { isFresh } from './freshness.mjs';

const root = new URL('..', import.meta.url).pathname;

if (!existsSync(join(root, 'web', 'index.html'))) process.exit(0);
if (isFresh(join(root, 'dist', 'index.html'), [join(root, 'web'), join(root, 'server', 'core'), join(root, 'vite.config.ts')])) process.exit(0);
const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
