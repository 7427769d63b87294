/**
 * A real Knot DNS (knotd) as a secondary of zonedeck, for tests of NOTIFY and transfers: started
 * on a free port with the configuration the test writes, its log kept, stopped and cleaned up.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { daemonPath } from './daemons';
import { freePort } from './test-server';

const run = promisify(execFile);

export interface KnotSecondary {
  port: number;
  /** Everything knotd logged so far. */
  output(): string;
  /** `dig +short` against the secondary; empty while it does not answer. */
  ask(name: string, type: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts knotd with the configuration `config(dir, port)` returns (its rundir and storage in `dir`). */
export async function startKnotSecondary(config: (dir: string, port: number) => string): Promise<KnotSecondary> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-knot-'));
  const conf = path.join(dir, 'knot.conf');
  fs.writeFileSync(conf, config(dir, port));
  let output = '';
  const knot: ChildProcess = spawn(daemonPath('knotd', 'knot'), ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  knot.stdout!.on('data', (d) => (output += d));
  knot.stderr!.on('data', (d) => (output += d));
  return {
    port,
    output: () => output,
    async ask(name, type) {
      try {
        const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', name, type]);
        return stdout.trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
    async stop() {
      if (knot.exitCode === null) {
        const exited = new Promise((r) => knot.once('exit', r));
        knot.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
