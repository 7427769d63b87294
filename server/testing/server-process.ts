/**
 * Starts the real server as one child process (`node build/server.js`, as `npm start` does) on free
 * loopback ports with its own DATA_DIR, for tests that need the real thing (crash, CLI, DNS).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clockSeam } from './clock-step';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * What `npm start` runs: the server as scripts/build-server.mjs builds it, which the test runs'
 * global set-ups (vitest.config.ts, playwright.config.ts) and the benchmarks do first.
 */
const SERVER = 'build/server.js';

export interface ServerProcess {
  url: string;
  dnsPort: number | null;
  dataDir: string;
  child: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  adminPassword?: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-srv-'));
}

export interface StartOptions {
  /** The entry point: the built server by default; the benchmarks start reference servers (TypeScript, through tsx) this way. */
  script?: string;
  /**
   * Pins the process to a CPU core, or a list as taskset takes it ("0-2"), with taskset (benchmarks).
   */
  cpu?: number | string;
  /** Extra node flags, e.g. `--cpu-prof` to profile the server under a benchmark's load. */
  nodeArgs?: string[];
  /** Starts the server with its wall clock stepped by the offset this file holds (server/testing/clock-step.ts). */
  clockFile?: string;
}

export async function startServer(env: Record<string, string> = {}, dataDir = tempDataDir(), opts: StartOptions = {}): Promise<ServerProcess> {
  if (process.env.ZONEDECK_TEST_TIER === 'fast') throw new Error('the fast tier starts no server: name this test *.int.test.ts (docs/testing.md)');
  const script = opts.script ?? SERVER;
  const seam = opts.clockFile === undefined ? { env: {}, nodeArgs: [] } : clockSeam(opts.clockFile);
  // One DNS thread unless asked: each UDP thread costs ~0.1 s of CPU to start, and the tests start
  // hundreds of servers; dns/sync/dns-threads.test.ts and dns/server.test.ts ask for two. Pinned to
  // one core (benchmarks), more threads would only add their hand-overs.
  env = { ...seam.env, DNS_THREADS: '1', ...env };
  const node = [process.execPath, ...(opts.nodeArgs ?? []), ...seam.nodeArgs, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script];
  const argv = opts.cpu === undefined ? node : ['taskset', '-c', String(opts.cpu), ...node];
  // Rate limits and the late-loop shedding off unless a test turns them on: a test machine that
  // runs many servers on two cores keeps each one's event loop late by design.
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DNS_HOST: '127.0.0.1',
      DNS_PORT: 'off',
      LOG_LEVEL: 'info',
      RATE_LIMIT_TOKEN: 'off',
      RATE_LIMIT_ADDRESS: 'off',
      HTTP_SHED_LOOP_DELAY_MS: 'off',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const ready = new Promise<{ url: string; dns: number | null; password?: string }>((resolve, reject) => {
    let buf = '';
    let password: string | undefined;
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        try {
          const msg = JSON.parse(line);
          if (msg.password) password = msg.password;
          if (msg.msg === 'listening') resolve({ url: msg.http, dns: msg.dns ?? null, password });
        } catch {
          /* not a JSON line */
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${stderr}`)));
    setTimeout(() => reject(new Error(`server did not start in 30 s:\n${stderr}`)), 30_000).unref();
  });
  const info = await ready;
  return {
    url: info.url,
    dnsPort: info.dns,
    dataDir,
    child,
    lines,
    adminPassword: info.password,
    stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
  };
}

/**
 * The admin CLI as the tests run it: the build of it (scripts/build-server.mjs, made by the test
 * runners' global setup) when it is there, which starts in a fraction of the time tsx takes; else
 * the sources through tsx, as `npm run cli` does.
 */
function cliCommand(): string[] {
  const built = path.join(ROOT, 'build', 'cli.js');
  return fs.existsSync(built) ? [built] : ['--import', 'tsx', 'server/cli/main.ts'];
}

/** Runs the admin CLI against a data dir; returns stdout lines, throws on failure. */
export function cli(dataDir: string, ...args: string[]): string[] {
  const r = spawnSync(process.execPath, [...cliCommand(), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`cli ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout.trim().split('\n');
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin CLI without blocking this process (unlike `cli`), so that a test's own load goes
 * on while it runs; `env` is added to the environment. Never throws on a non-zero exit.
 */
export function runCli(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliCommand(), ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
