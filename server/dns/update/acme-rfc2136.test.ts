/**
 * ACME clients unchanged against zonedeck: certbot with its rfc2136 plugin and lego with
 * `--dns rfc2136` each obtain a certificate from a local Pebble (Let's Encrypt's test CA),
 * which validates dns-01 by asking zonedeck's DNS port. The clients sign their updates (and
 * certbot its SOA lookups) with a key scoped to `_acme-challenge` TXT records; the challenge
 * records come and go as change sets of source rfc2136.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli } from '../../testing/server-process';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);

function binary(name: string, pkg: string): string {
  for (const dir of ['/usr/bin', '/usr/local/bin', '/usr/sbin', ...(process.env.PATH ?? '').split(':')]) {
    if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  throw new Error(`${name} is not installed; the ACME interop tests need it (Debian: apt-get install ${pkg})`);
}

let zd: RunningServer;
let pebble: ChildProcess;
let pebbleLog = '';
let dir: string;
let acmeUrl: string;
let caFile: string;
let key: { name: string; algorithm: string; secret: string };

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('error', () => resolve(false));
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-acme-'));
  zd = await startServer();
  expect((await zd.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  const y = cli(zd.dir, 'tsig', 'create', 'admin', 'acme-key', '--zones', 'example.com', '--names', '_acme-challenge,_acme-challenge.*', '--types', 'TXT').at(-1)!;
  const [algorithm, name, secret] = y.split(':');
  key = { name: name!, algorithm: algorithm!, secret: secret! };

  // Pebble's HTTPS listener needs a certificate; the clients are told to trust it.
  caFile = path.join(dir, 'pebble-cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    path.join(dir, 'pebble-key.pem'),
    '-out',
    caFile,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ]);
  const [port, mgmt, http, tls] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${port}`,
      managementListenAddress: `127.0.0.1:${mgmt}`,
      certificate: caFile,
      privateKey: path.join(dir, 'pebble-key.pem'),
      httpPort: http,
      tlsPort: tls,
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
    },
  };
  fs.writeFileSync(path.join(dir, 'pebble.json'), JSON.stringify(config));
  pebble = spawn(binary('pebble', 'pebble'), ['-config', path.join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${zd.dns}`], {
    // No random nonce rejections or validation delays: the test is about DNS, not client retries.
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pebble.stdout!.on('data', (d) => (pebbleLog += d));
  pebble.stderr!.on('data', (d) => (pebbleLog += d));
  expect(await eventually(() => portOpen(port), 100, 100), pebbleLog).toBe(true);
  acmeUrl = `https://127.0.0.1:${port}/dir`;
  // The DNS thread takes the new key up within a second.
  expect(await eventually(async () => /status: NOERROR/.test(await zd.dig('-y', y, 'example.com', 'SOA')), 50, 100)).toBe(true);
}, 60_000);

afterAll(async () => {
  if (pebble && pebble.exitCode === null) {
    const exited = new Promise((r) => pebble.once('exit', r));
    pebble.kill('SIGTERM');
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await zd?.stop();
});

/** The names in a PEM certificate's subjectAltName. */
async function sanOf(file: string): Promise<string> {
  return (await run('openssl', ['x509', '-in', file, '-noout', '-ext', 'subjectAltName'])).stdout;
}

/** The rfc2136 change sets of the zone: who made them and which records they added or removed. */
async function rfc2136Changes() {
  const changes = (await (await zd.api('GET', '/domains/example.com/changes?per_page=100')).json()) as Array<{
    source: string;
    actor: { credential: string };
    added: Array<{ name: string; record_type: string }>;
    removed: Array<{ name: string }>;
  }>;
  return changes.filter((c) => c.source === 'rfc2136');
}

it('certbot --dns-rfc2136 obtains a certificate through the scoped key', async () => {
  const ini = path.join(dir, 'rfc2136.ini');
  fs.writeFileSync(
    ini,
    `dns_rfc2136_server = 127.0.0.1\ndns_rfc2136_port = ${zd.dns}\ndns_rfc2136_name = ${key.name}\ndns_rfc2136_secret = ${key.secret}\ndns_rfc2136_algorithm = ${key.algorithm.toUpperCase()}\n`,
    { mode: 0o600 },
  );
  const base = path.join(dir, 'certbot');
  const args = [
    'certonly',
    '--non-interactive',
    '--agree-tos',
    '--register-unsafely-without-email',
    '--server',
    acmeUrl,
    '--config-dir',
    `${base}/config`,
    '--work-dir',
    `${base}/work`,
    '--logs-dir',
    `${base}/logs`,
  ];
  args.push('--authenticator', 'dns-rfc2136', '--dns-rfc2136-credentials', ini, '--dns-rfc2136-propagation-seconds', '1', '-d', 'www.example.com');
  const out = await run(binary('certbot', 'certbot python3-certbot-dns-rfc2136'), args, { env: { ...process.env, REQUESTS_CA_BUNDLE: caFile }, timeout: 120_000 }).catch(
    (e: { stdout?: string; stderr?: string }) => e,
  );
  const log = `${out.stdout ?? ''}${out.stderr ?? ''}\n${pebbleLog}`;
  const cert = `${base}/config/live/www.example.com/fullchain.pem`;
  expect(fs.existsSync(cert), log).toBe(true);
  expect(await sanOf(cert)).toMatch(/DNS:www\.example\.com/);
  // The challenge record was added and removed by signed updates, and is gone.
  const ours = (await rfc2136Changes()).filter((c) => c.actor.credential === `tsig:${key.name}`);
  expect(ours.some((c) => c.added.some((r) => r.name === '_acme-challenge.www' && r.record_type === 'TXT'))).toBe(true);
  expect(ours.some((c) => c.removed.some((r) => r.name === '_acme-challenge.www'))).toBe(true);
  expect((await zd.dig('+short', '_acme-challenge.www.example.com', 'TXT')).trim()).toBe('');
}, 150_000);

it('lego --dns rfc2136 obtains a certificate through the scoped key', async () => {
  const before = (await rfc2136Changes()).length;
  const env = {
    ...process.env,
    LEGO_CA_CERTIFICATES: caFile,
    RFC2136_NAMESERVER: `127.0.0.1:${zd.dns}`,
    RFC2136_TSIG_KEY: key.name,
    RFC2136_TSIG_SECRET: key.secret,
    RFC2136_TSIG_ALGORITHM: `${key.algorithm}.`,
    RFC2136_PROPAGATION_TIMEOUT: '30',
    RFC2136_POLLING_INTERVAL: '1',
  };
  const args = [
    '--server',
    acmeUrl,
    '--email',
    'acme@example.com',
    '--accept-tos',
    '--path',
    path.join(dir, 'lego'),
    '--dns',
    'rfc2136',
    '--dns.resolvers',
    `127.0.0.1:${zd.dns}`,
    '--dns.disable-cp',
    '--domains',
    'api.example.com',
    'run',
  ];
  const out = await run(binary('lego', 'lego'), args, { env, timeout: 120_000 }).catch((e: { stdout?: string; stderr?: string }) => e);
  const log = `${out.stdout ?? ''}${out.stderr ?? ''}\n${pebbleLog}`;
  const cert = path.join(dir, 'lego', 'certificates', 'api.example.com.crt');
  expect(fs.existsSync(cert), log).toBe(true);
  expect(await sanOf(cert)).toMatch(/DNS:api\.example\.com/);
  const changes = await rfc2136Changes();
  expect(changes.length, log).toBeGreaterThanOrEqual(before + 2);
  expect(changes.some((c) => c.added.some((r) => r.name === '_acme-challenge.api'))).toBe(true);
  expect((await zd.dig('+short', '_acme-challenge.api.example.com', 'TXT')).trim()).toBe('');
}, 150_000);
