/**
 * `npm run cli` as a second terminal runs it: from the build, with the settings of the `.env`
 * file in the project's directory (npm runs every script there), the same file `npm start` reads.
 * The project is a throwaway copy of this one's scripts with links to its build, scripts and
 * packages, so that its `.env` touches nothing else.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-dotenv-'));
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

describe('npm run cli and npm start', () => {
  it('read the .env file beside package.json: the CLI reaches the DATA_DIR it names with nothing exported', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const script of ['start', 'cli']) expect(pkg.scripts[script]).toContain('--env-file-if-exists=.env');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'dotenv-check', private: true, type: 'module', scripts: { precli: pkg.scripts.precli, cli: pkg.scripts.cli } }));
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
  });
});
