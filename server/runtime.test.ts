/**
 * The runtime: the server runs on the Node that `npm install` brought (the package
 * node-<platform>-<arch> that package.json lists for this machine, Node 24), at least the
 * `engines` floor, and its listening line says which.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from './testing/server-process';

const ROOT = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; optionalDependencies?: Record<string, string> };
const numbers = (v: string) => v.replace(/^>=/, '').split('.').map(Number);
const atLeast = (v: string, floor: string) => {
  const [a, b] = [numbers(v), numbers(floor)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
};

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
    if (declared !== undefined) {
      // npm installed it and its bin is what npm scripts (npm start, npm test) run as `node`.
      expect(listening!.node).toBe(declared);
      expect(fs.realpathSync(process.execPath)).toBe(fs.realpathSync(path.join(ROOT, 'node_modules', packaged, 'bin', 'node')));
    }
  });
});
