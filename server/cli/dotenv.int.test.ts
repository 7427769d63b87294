/**
 * `npm run cli` as a second terminal runs it: from the build, with the settings of the `.env`
 * file in the project's directory (npm runs every script there), the same file `npm start` reads.
 * The project is a throwaway copy of this one's scripts with links to its build, scripts and
 * packages, so that its `.env` touches nothing else.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/test-server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-dotenv-'));
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

describe('npm run cli and npm start', () => {
  it('read the .env file beside package.json: the CLI reaches the DATA_DIR it names with nothing exported', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'dotenv-check', private: true, type: 'module', scripts: { precli: pkg.scripts.precli, cli: pkg.scripts.cli, start: pkg.scripts.start } }),
    );
    for (const link of ['build', 'scripts', 'node_modules']) fs.symlinkSync(path.join(ROOT, link), path.join(project, link));
    const data = path.join(project, 'somewhere-else');
    fs.writeFileSync(path.join(project, '.env'), `# the server's settings\nDATA_DIR=${data}\n`);
    const env = { ...process.env };
    delete env.DATA_DIR;
    delete env.DATABASE_URL;
    const run = spawnSync('npm', ['run', '-s', 'cli', '--', '--init', 'users', 'add', 'bob'], { cwd: project, env, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(fs.existsSync(path.join(data, 'zonedeck.db'))).toBe(true);
    // A variable set in the environment wins over the file.
    const elsewhere = path.join(project, 'exported');
    const again = spawnSync('npm', ['run', '-s', 'cli', '--', '--init', 'users', 'add', 'carol'], { cwd: project, env: { ...env, DATA_DIR: elsewhere }, encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(fs.existsSync(path.join(elsewhere, 'zonedeck.db'))).toBe(true);

    // Without a .env nothing is said of it (Node's own --env-file-if-exists printed "not found" each time).
    fs.rmSync(path.join(project, '.env'));
    const bare = spawnSync('npm', ['run', '-s', 'cli', '--', 'users', 'add', 'dave'], { cwd: project, env: { ...env, DATA_DIR: elsewhere }, encoding: 'utf8' });
    expect(bare.status, bare.stderr).toBe(0);
    expect(bare.stderr).not.toMatch(/\.env/);
  });

  it('npm start takes its port from the same .env', async () => {
    const port = await freePort();
    fs.writeFileSync(path.join(project, '.env'), `DATA_DIR=${path.join(project, 'served')}\nPORT=${port}\nDNS_PORT=0\n`);
    const env = { ...process.env };
    for (const name of ['DATA_DIR', 'DATABASE_URL', 'PORT', 'DNS_PORT']) delete env[name];
    const server = spawn('npm', ['run', '-s', 'start'], { cwd: project, env, detached: true });
    try {
      const listening = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const line = out.split('\n').find((l) => l.includes('"listening"'));
          if (line) resolve(line);
        });
        server.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)));
      });
      expect(JSON.parse(listening).http).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      process.kill(-server.pid!, 'SIGTERM');
    }
  });
});
