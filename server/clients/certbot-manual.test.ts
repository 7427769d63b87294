/**
 * certbot obtains a certificate through zonedeck: Debian's ACME test server (pebble) checks the
 * DNS-01 challenges by asking zonedeck's DNS port, and certbot's manual hooks create and delete
 * the challenge records through the API exactly as the published certbot plugin for this API
 * does (fixtures/certbot-hook.mjs). Afterwards no challenge record is left, in the API or in DNS.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startServer, type ServerProcess } from '../testing/server-process';
import { startPebble, type Pebble } from './fixtures/pebble';
import { need } from './fixtures/need';

const run = promisify(execFile);
const HOOK = path.join(import.meta.dirname, 'fixtures', 'certbot-hook.mjs');

let server: ServerProcess | undefined;
let pebble: Pebble | undefined;
let token = '';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-certbot-'));

const api = (method: string, url: string, body?: unknown) =>
  fetch(`${server!.url}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  for (const [name, pkg] of [
    ['certbot', 'certbot'],
    ['pebble', 'pebble'],
    ['openssl', 'openssl'],
    ['dig', 'bind9-dnsutils'],
  ] as const)
    need(name, pkg);
  server = await startServer({ DNS_PORT: '0' });
  cli(server.dataDir, 'users', 'add', 'acme');
  token = cli(server.dataDir, 'tokens', 'create', 'acme').at(-1)!;
  expect((await api('POST', '/domains', { name: 'example.test' })).status).toBe(201);
  pebble = await startPebble(server.dnsPort!);
});

afterAll(async () => {
  await pebble?.stop();
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

describe('certbot --manual with DNS-01 hooks on the API', () => {
  it('gets one certificate for example.test and www.example.test and leaves no challenge record', async () => {
    const [config, workDir, logs, state] = ['config', 'work', 'logs', 'state'].map((name) => {
      fs.mkdirSync(path.join(work, name));
      return path.join(work, name);
    }) as [string, string, string, string];
    const cliIni = path.join(work, 'cli.ini'); // keeps a machine's /etc/letsencrypt/cli.ini out
    fs.writeFileSync(cliIni, '');
    // certbot looks the hook's first word up as is (quotes included), so no quoting here.
    const hook = (phase: string) => `${process.execPath} ${HOOK} ${phase}`;
    // certbot's own args: see `certbot --help manual` (certbot 2.x).
    const args = [
      'certonly',
      '--config',
      cliIni,
      '--manual',
      '--preferred-challenges',
      'dns',
      '--non-interactive',
      '--agree-tos',
      '-m',
      'test@example.test',
      '--server',
      pebble!.directory,
      '--config-dir',
      config,
      '--work-dir',
      workDir,
      '--logs-dir',
      logs,
      '--manual-auth-hook',
      hook('auth'),
      '--manual-cleanup-hook',
      hook('cleanup'),
      '-d',
      'example.test',
      '-d',
      'www.example.test',
    ];
    const env = { ...process.env, REQUESTS_CA_BUNDLE: pebble!.caBundle, ZONEDECK_API: `${server!.url}/api/v1`, ZONEDECK_TOKEN: token, ZONEDECK_HOOK_STATE: state };
    const result = await run('certbot', args, { env, timeout: 120_000 }).then(
      (r) => ({ code: 0, output: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string; message: string }) => ({ code: e.code ?? -1, output: `${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
    const certbotLog = path.join(logs, 'letsencrypt.log');
    const why = () =>
      `certbot:\n${result.output}\n--- letsencrypt.log (tail) ---\n${fs.existsSync(certbotLog) ? fs.readFileSync(certbotLog, 'utf8').slice(-6000) : ''}\n--- pebble ---\n${pebble!.log().slice(-4000)}`;
    expect(result.code, why()).toBe(0);

    const pem = fs.readFileSync(path.join(config, 'live', 'example.test', 'cert.pem'));
    const names = new X509Certificate(pem).subjectAltName?.split(', ').sort();
    expect(names).toEqual(['DNS:example.test', 'DNS:www.example.test']);

    // The cleanup hook deleted both challenge records: none in the API, none in DNS.
    const txt = await api('GET', '/domains/example.test/records?record_type=TXT');
    expect(txt.status).toBe(200);
    expect(await txt.json()).toEqual([]);
    expect(fs.readdirSync(state)).toEqual([]);
    for (const name of ['_acme-challenge.example.test', '_acme-challenge.www.example.test']) {
      const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(server!.dnsPort), '+time=2', '+tries=2', '+norecurse', '+short', name, 'TXT']);
      expect(stdout.trim(), `dig ${name} TXT`).toBe('');
    }
  }, 180_000);
});
