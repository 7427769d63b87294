/**
 * lego (Debian's `lego`) obtains a certificate through zonedeck's PowerDNS-compatible API:
 * its `pdns` DNS provider, configured exactly as for a PowerDNS server (PDNS_API_URL,
 * PDNS_API_KEY = a zonedeck token scoped to the challenge records), creates and deletes the
 * DNS-01 challenge records, and Debian's ACME test server (pebble) checks them by asking
 * zonedeck's DNS port. Afterwards no challenge record is left, and the zone's history shows
 * lego's changes with source `pdns`.
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

let server: ServerProcess | undefined;
let pebble: Pebble | undefined;
let token = '';
/** What lego is given: a token that may change only the challenge TXT records. */
let acmeToken = '';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-lego-'));

const api = (method: string, url: string, body?: unknown) =>
  fetch(`${server!.url}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  for (const [name, pkg] of [
    ['lego', 'lego'],
    ['pebble', 'pebble'],
    ['openssl', 'openssl'],
    ['dig', 'bind9-dnsutils'],
  ] as const)
    need(name, pkg);
  server = await startServer({ DNS_PORT: '0' });
  cli(server.dataDir, 'users', 'add', 'acme');
  token = cli(server.dataDir, 'tokens', 'create', 'acme').at(-1)!;
  acmeToken = cli(server.dataDir, 'tokens', 'create', 'acme', '--label', 'lego', '--names', '_acme-challenge,_acme-challenge.*', '--types', 'TXT').at(-1)!;
  // The zone is made through the PowerDNS API too, as a PowerDNS user would.
  const created = await fetch(`${server.url}/api/v1/servers/localhost/zones`, {
    method: 'POST',
    headers: { 'x-api-key': token, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'example.test.', kind: 'Native', nameservers: ['ns1.zonedeck.test.', 'ns2.zonedeck.test.'] }),
  });
  expect(created.status).toBe(201);
  pebble = await startPebble(server.dnsPort!);
});

afterAll(async () => {
  await pebble?.stop();
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

describe('lego --dns pdns', () => {
  it('gets one certificate for example.test and www.example.test and leaves no challenge record', async () => {
    // lego's flags and the pdns provider's variables: `lego --help`, `lego dnshelp -c pdns` (lego 4.9).
    const args = [
      '--accept-tos',
      '--email',
      'test@example.test',
      '--server',
      pebble!.directory,
      '--path',
      work,
      '--dns',
      'pdns',
      // Zone lookups ask zonedeck's DNS port; the check at the zone's NS names is off (ns1.zonedeck.test resolves nowhere).
      '--dns.resolvers',
      `127.0.0.1:${server!.dnsPort}`,
      '--dns.disable-cp',
      '--domains',
      'example.test',
      '--domains',
      'www.example.test',
      'run',
    ];
    const env = {
      ...process.env,
      LEGO_CA_CERTIFICATES: pebble!.caBundle,
      PDNS_API_URL: `${server!.url}/`,
      PDNS_API_KEY: acmeToken,
      PDNS_SERVER_NAME: 'localhost',
      PDNS_PROPAGATION_TIMEOUT: '30',
      PDNS_POLLING_INTERVAL: '1',
    };
    const result = await run('lego', args, { env, timeout: 120_000 }).then(
      (r) => ({ code: 0, output: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string; message: string }) => ({ code: e.code ?? -1, output: `${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
    const why = () => `lego:\n${result.output}\n--- pebble ---\n${pebble!.log().slice(-4000)}`;
    expect(result.code, why()).toBe(0);

    const pem = fs.readFileSync(path.join(work, 'certificates', 'example.test.crt'));
    const names = new X509Certificate(pem).subjectAltName?.split(', ').sort();
    expect(names).toEqual(['DNS:example.test', 'DNS:www.example.test']);

    // Cleanup deleted both challenge RRsets: none in the API, none in DNS.
    const txt = await api('GET', '/domains/example.test/records?record_type=TXT');
    expect(await txt.json()).toEqual([]);
    for (const name of ['_acme-challenge.example.test', '_acme-challenge.www.example.test']) {
      const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(server!.dnsPort), '+time=2', '+tries=2', '+norecurse', '+short', name, 'TXT']);
      expect(stdout.trim(), `dig ${name} TXT`).toBe('');
    }

    // Each of lego's writes is one change set of the zone's history, made through the PowerDNS API.
    const changes = (await (await api('GET', '/domains/example.test/changes?source=pdns')).json()) as Array<{
      added: Array<{ name: string; record_type: string }>;
      removed: Array<{ name: string }>;
      actor: { credential: string };
    }>;
    const challenges = (side: 'added' | 'removed') =>
      changes
        .flatMap((c) => c[side])
        .filter((r) => r.name.startsWith('_acme-challenge'))
        .map((r) => r.name)
        .sort();
    expect(challenges('added')).toEqual(['_acme-challenge', '_acme-challenge.www']);
    expect(challenges('removed')).toEqual(['_acme-challenge', '_acme-challenge.www']);
    // …all of them by lego's scoped token, not the one that created the zone.
    const byLego = changes.filter((c) => [...c.added, ...c.removed].some((r) => r.name.startsWith('_acme-challenge')));
    const creation = changes.at(-1)!;
    expect(new Set(byLego.map((c) => c.actor.credential)).size).toBe(1);
    expect(byLego[0]!.actor.credential).not.toBe(creation.actor.credential);
  }, 180_000);
});
