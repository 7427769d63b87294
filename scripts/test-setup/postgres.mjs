// A private PostgreSQL cluster for the "postgres" vitest project: initialised once under a
// directory of this checkout's own, started on a free 127.0.0.1 port when it is not running,
// and left running for the next `npm test`. No unix socket, a random password, fsync off.
// PostgreSQL refuses to run as root, so as root its programs run as the `postgres` user
// (created by Debian's postgresql-common) on a data directory under /tmp that user can reach.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { which } from './system-tools.mjs';

const SETTINGS = `
# zonedeck test cluster (scripts/test-setup/postgres.mjs)
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
`;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function fail(message, detail = '') {
  console.error(`npm test: ${message}${detail ? `\n${detail}` : ''}`);
  console.error('Set TEST_DATABASE_URL=postgres://user:password@host:port/db to use another PostgreSQL instead.');
  process.exit(1);
}

/** The cluster's directories and how to run its programs, for this checkout and this user. */
function layout(root) {
  const asRoot = process.getuid?.() === 0;
  const base = asRoot ? `/tmp/zonedeck-pg-${createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12)}` : join(root, 'node_modules', '.cache', 'zonedeck-pg');
  let owner;
  if (asRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0) fail('running as root, PostgreSQL needs a `postgres` user to run as (apt-get install postgresql creates it).');
    owner = { uid: Number(id.stdout), gid: Number(gid.stdout) };
  }
  const run = (program, args) => {
    const argv = asRoot ? ['runuser', '-u', 'postgres', '--', program, ...args] : [program, ...args];
    return spawnSync(argv[0], argv.slice(1), { cwd: '/', encoding: 'utf8' });
  };
  return { base, data: join(base, 'data'), log: join(base, 'server.log'), passwordFile: join(base, 'password'), owner, run };
}

function initialise(cluster, initdb) {
  const { base, data, passwordFile, owner, run } = cluster;
  rmSync(base, { recursive: true, force: true });
  mkdirSync(data, { recursive: true, mode: 0o700 });
  writeFileSync(passwordFile, randomBytes(18).toString('hex'), { mode: 0o600 });
  if (owner) for (const p of [base, data, passwordFile]) chownSync(p, owner.uid, owner.gid);
  const r = run(initdb, ['-D', data, '-U', 'zonedeck', `--pwfile=${passwordFile}`, '--auth-host=scram-sha-256', '--auth-local=peer', '-E', 'UTF8', '--no-locale', '--no-sync']);
  if (r.status !== 0) {
    rmSync(data, { recursive: true, force: true });
    fail(`initdb failed (exit ${r.status}).`, r.stderr || r.stdout);
  }
  appendFileSync(join(data, 'postgresql.conf'), SETTINGS);
}

/** The port of the running postmaster (line 4 of postmaster.pid), or null when it is not running. */
function runningPort(cluster, pgCtl) {
  if (cluster.run(pgCtl, ['status', '-D', cluster.data]).status !== 0) return null;
  const port = Number(readFileSync(join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : null;
}

async function start(cluster, pgCtl) {
  const port = await freePort();
  const r = cluster.run(pgCtl, ['start', '-D', cluster.data, '-l', cluster.log, '-w', '-t', '60', '-o', `-p ${port}`]);
  if (r.status === 0) return port;
  // Another `npm test` of this checkout may have started it meanwhile.
  const other = runningPort(cluster, pgCtl);
  if (other) return other;
  const log = existsSync(cluster.log) ? readFileSync(cluster.log, 'utf8').split('\n').slice(-15).join('\n') : '';
  fail(`PostgreSQL did not start (pg_ctl exit ${r.status}); its log is ${cluster.log}.`, `${r.stderr}${log}`);
}

/** TEST_DATABASE_URL for this run: the one given, or this checkout's own cluster, started if needed. */
export async function testDatabaseUrl(root) {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  const initdb = which('initdb');
  const pgCtl = which('pg_ctl');
  if (!initdb || !pgCtl) fail('PostgreSQL (initdb, pg_ctl) is not installed: apt-get install postgresql');
  const cluster = layout(root);
  if (!existsSync(join(cluster.data, 'PG_VERSION')) || !existsSync(cluster.passwordFile)) initialise(cluster, initdb);
  const port = runningPort(cluster, pgCtl) ?? (await start(cluster, pgCtl));
  const password = readFileSync(cluster.passwordFile, 'utf8').trim();
  const url = `postgres://zonedeck:${password}@127.0.0.1:${port}/postgres`;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (e) {
    fail(`PostgreSQL at 127.0.0.1:${port} is running but refuses the test connection: ${e.message}`);
  } finally {
    await client.end().catch(() => {});
  }
  console.log(
    `npm test: PostgreSQL for the tests on 127.0.0.1:${port} (data in ${cluster.data}; stop it with \`${process.getuid?.() === 0 ? 'runuser -u postgres -- ' : ''}${pgCtl} stop -D ${cluster.data}\`)`,
  );
  return url;
}
