/**
 * A PostgreSQL cluster of one test's own, in a temporary directory, for a test that stops and
 * starts the database under a running zonedeck (the shared cluster of TEST_DATABASE_URL serves
 * every other test and is never stopped). Made with initdb and run with pg_ctl on a free
 * 127.0.0.1 port that stays its own across restarts. As root, PostgreSQL's programs run as the
 * `postgres` user, as scripts/test-setup/postgres.mjs does for the shared cluster.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface OwnPostgres {
  /** postgres://… of the cluster's `postgres` database, as its superuser. */
  url: string;
  /** `pg_ctl stop -m fast`: every session is ended (57P01) and the port refuses connections. */
  stop(): void;
  /** Starts it again on the same port; returns once it accepts connections. */
  start(): void;
  /**
   * `pg_ctl restart -m fast`, as an operator's restart or a package upgrade does it: sessions ended,
   * a moment refused, then up again. Asynchronous, so that the test's own loops go on meanwhile;
   * resolves once it accepts connections.
   */
  restart(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): void;
}

/** PostgreSQL's own bin directory (Debian keeps initdb and pg_ctl out of PATH), or null. */
function binDir(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':'), ...(fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin`) : [])];
  return dirs.find((d) => d && fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'pg_ctl'))) ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Why no cluster can be made here (no PostgreSQL programs, or root without a `postgres` user), or null when one can. */
export function ownPostgresMissing(): string | null {
  if (!binDir()) return 'PostgreSQL is not installed (initdb, pg_ctl): apt-get install postgresql';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root, PostgreSQL needs a `postgres` user to run as';
  return null;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const missing = ownPostgresMissing();
  if (missing) throw new Error(missing);
  const bin = binDir()!;
  const asRoot = process.getuid?.() === 0;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-own-pg-'));
  const data = path.join(base, 'data');
  const passwordFile = path.join(base, 'password');
  const password = randomBytes(12).toString('hex');
  fs.writeFileSync(passwordFile, password, { mode: 0o600 });
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout);
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout);
    fs.chownSync(base, uid, gid);
    fs.chownSync(passwordFile, uid, gid);
  }
  const argvOf = (program: string, args: string[]) => (asRoot ? ['runuser', '-u', 'postgres', '--', path.join(bin, program), ...args] : [path.join(bin, program), ...args]);
  const run = (program: string, args: string[]) => {
    const argv = argvOf(program, args);
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: '/', encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  };
  const runAsync = (program: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const argv = argvOf(program, args);
      const child = spawn(argv[0]!, argv.slice(1), { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args.join(' ')} failed (${code}): ${out}`))));
    });
  run('initdb', ['-D', data, '-U', 'zonedeck', `--pwfile=${passwordFile}`, '--auth-host=scram-sha-256', '--auth-local=peer', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  fs.appendFileSync(path.join(data, 'postgresql.conf'), `\nlisten_addresses = '127.0.0.1'\nport = ${port}\nunix_socket_directories = ''\nfsync = off\nfull_page_writes = off\n`);
  const log = path.join(base, 'server.log');
  const start = () => run('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60']);
  const stop = () => run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
  start();
  return {
    url: `postgres://zonedeck:${password}@127.0.0.1:${port}/postgres`,
    start,
    stop,
    restart: () => runAsync('pg_ctl', ['restart', '-D', data, '-l', log, '-m', 'fast', '-w', '-t', '60']),
    destroy() {
      try {
        stop();
      } catch {
        /* not running */
      }
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
