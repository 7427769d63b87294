/**
 * For the DNS tests: a real zonedeck process (`node --import tsx server/main.ts`) on a
 * temp DATA_DIR with free ports, an API token for its first user, and `dig`/`kdig` runners.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  http: string;
  dns: number;
  dir: string;
  child: ChildProcess;
  /** Every JSON log line the server printed so far. */
  logs: Array<Record<string, unknown>>;
  api(method: string, url: string, body?: unknown): Promise<Response>;
  /** Runs dig against the server; the arguments follow `@127.0.0.1 -p <port>`. */
  dig(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-dns-'));
  const fullEnv = { ...process.env, DATA_DIR: dir, PORT: '0', DNS_PORT: '0', HOST: '127.0.0.1', DNS_HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const logs: Array<Record<string, unknown>> = [];
  child.stderr!.on('data', (d) => (stderr += d));
  const listening = await new Promise<{ http: string; dns: number }>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line);
        logs.push(entry);
        if (entry.msg === 'listening') resolve(entry);
      } catch {
        /* not JSON */
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', 'tokens', 'create', 'admin'], { cwd: ROOT, env: fullEnv });
  const token = stdout.trim().split('\n').at(-1)!;
  return {
    ...listening,
    dir,
    child,
    logs,
    api: (method, url, body) =>
      fetch(`${listening.http}/api/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    dig: async (...args) => (await run('dig', ['@127.0.0.1', '-p', String(listening.dns), '+time=2', '+tries=2', ...args])).stdout,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port free for both UDP and TCP on 127.0.0.1 (for a secondary or a fake resolver). */
export async function freePort(): Promise<number> {
  const net = await import('node:net');
  const dgram = await import('node:dgram');
  for (;;) {
    const server = net.createServer();
    const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)));
    const udp = dgram.createSocket('udp4');
    const ok = await new Promise<boolean>((r) => {
      udp.once('error', () => r(false));
      udp.bind(port, '127.0.0.1', () => r(true));
    });
    udp.close();
    await new Promise((r) => server.close(r));
    if (ok) return port;
  }
}

/** Polls `fn` until it returns true, at most `tries` times `everyMs` apart. */
export async function eventually(fn: () => Promise<boolean>, tries = 50, everyMs = 100): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}
