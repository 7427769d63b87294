/**
 * For the DNS tests: the real zonedeck process (server/testing/server-process.ts) with DNS
 * on a free port, an API token for its first user, and a `dig` runner.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { cli, startServer as startProcess } from './server-process';

const run = promisify(execFile);

export interface RunningServer {
  http: string;
  dns: number;
  dir: string;
  child: ChildProcess;
  /** Every JSON log line the server printed so far. */
  logs: Array<Record<string, unknown>>;
  api(method: string, url: string, body?: unknown): Promise<Response>;
  /** The PowerDNS-compatible API (`/api/v1/servers/localhost…`, X-API-Key) as the same user. */
  pdns(method: string, url: string, body?: unknown): Promise<Response>;
  /** Runs dig against the server; the arguments follow `@127.0.0.1 -p <port>`. */
  dig(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const proc = await startProcess({ DNS_PORT: '0', ...env });
  const dns = proc.dnsPort!;
  const token = cli(proc.dataDir, 'tokens', 'create', 'admin').at(-1)!;
  const parsed = (line: string) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  };
  return {
    http: proc.url,
    dns,
    dir: proc.dataDir,
    child: proc.child,
    get logs() {
      return proc.lines.flatMap(parsed);
    },
    api: (method, url, body) =>
      fetch(`${proc.url}/api/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    pdns: (method, url, body) =>
      fetch(`${proc.url}/api/v1/servers/localhost${url}`, {
        method,
        headers: { 'x-api-key': token, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    dig: async (...args) => (await run('dig', ['@127.0.0.1', '-p', String(dns), '+time=2', '+tries=2', ...args])).stdout,
    async stop() {
      await proc.stop();
      fs.rmSync(proc.dataDir, { recursive: true, force: true });
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
