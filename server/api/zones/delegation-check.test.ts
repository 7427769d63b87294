/**
 * "Check from outside": GET /domains/:name/delegation against a fake resolver (the parent zone
 * `test` and the name servers' addresses) and a fake server of that parent at 127.0.0.5 (the NS
 * referral and the DS set of each zone), with zonedeck's own DNS server as one
 * of the listed name servers (its SOA serial is the real one), one that serves an older serial
 * and one that never answers. Pending → delegated, DS missing / matching / mismatching, in sync /
 * behind / no answer, malformed answers, and the zone access rules of every /domains/:name path.
 * Runs on SQLite and on PostgreSQL.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { startDns, type DnsServer } from '../../dns/server';
import { eventually, freePort } from '../../testing/test-server';
import { askSerial } from '../../services/checks/dns-questions';
import { createLogger } from '../../log';
import { createServices } from '../../services';
import { ZoneEvents } from '../../services/changes/events';
import { hashPassword } from '../../services/identity/secrets';
import { openStore } from '../../store/open';
import type { Store } from '../../store/types';
import { createPostgresDatabase, TEST_SECRETS_KEY, type TestDatabase } from '../../testing/postgres-database';

const OURS = ['ns1.zonedeck.test', 'ns2.zonedeck.test', 'ns3.zonedeck.test'];
/** ns1 is zonedeck itself, ns2 serves an old copy, ns3 never answers. */
const ADDRESS: Record<string, string> = {
  'ns1.zonedeck.test': '127.0.0.1',
  'ns2.zonedeck.test': '127.0.0.3',
  'ns3.zonedeck.test': '127.0.0.4',
  // A zone owner's own name server at zonedeck's address: the inside of the network.
  'ns.inside.example': '127.0.0.1',
  // The parent zone's server: in the one network the operator lets the check ask (PARENT_CHECK_NETWORKS).
  'ns.parent.test': '127.0.0.5',
};
const OLD_SERIAL = 2000010100;

interface Ds {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Buffer;
}
/** What the parent's server says about each zone: its NS and DS sets; a zone it does not know is NXDOMAIN. */
const PARENT = new Map<string, { ns: string[]; ds: Ds[] }>();
/** Names whose answers come back malformed. */
const BROKEN = new Set<string>();
let asked = 0;

let dir: string;
let pg: TestDatabase | undefined;
let store: Store;
let dns: DnsServer;
let resolver: dgram.Socket;
const others: dgram.Socket[] = [];
let app: ReturnType<typeof buildApp>;
const tok: Record<string, string> = {};

const PARENT_SOA = { mname: 'ns.parent.test', rname: 'hostmaster.parent.test', serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 1 };

/** The resolver: the parent zone `test` (its SOA and NS) and every server's address. */
function answerAsResolver(msg: Buffer, rinfo: dgram.RemoteInfo) {
  const q = packet.decode(msg);
  const { name, type } = q.questions![0]!;
  asked++;
  let answers: packet.Answer[] = [];
  let authorities: packet.Answer[] = [];
  let rcode = 0;
  if (type === 'A' && ADDRESS[name]) answers = [{ type: 'A', name, ttl: 300, data: ADDRESS[name]! }];
  else if (name === 'test' && type === 'SOA') answers = [{ type: 'SOA', name, ttl: 300, data: PARENT_SOA }];
  else if (name === 'test' && type === 'NS') answers = [{ type: 'NS', name, ttl: 300, data: 'ns.parent.test' }];
  else if (name.endsWith('.test')) authorities = [{ type: 'SOA', name: 'test', ttl: 300, data: PARENT_SOA }];
  if (answers.length === 0 && !ADDRESS[name] && !PARENT.has(name.toLowerCase())) rcode = 3;
  const reply = packet.encode({ id: q.id, type: 'response', flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | rcode, questions: q.questions, answers, authorities });
  resolver.send(reply, rinfo.port, rinfo.address);
}

/** The parent's server, asked without recursion: a referral for the NS, the DS with authority. */
function answerAsParent(s: dgram.Socket, msg: Buffer, rinfo: dgram.RemoteInfo) {
  const q = packet.decode(msg);
  const { name, type } = q.questions![0]!;
  const zone = PARENT.get(name.toLowerCase());
  if (BROKEN.has(name.toLowerCase())) {
    // The right id, then garbage.
    s.send(Buffer.concat([msg.subarray(0, 2), Buffer.from([0x81, 0x80, 0, 1, 0, 9, 0, 0, 0, 0, 0xff])]), rinfo.port, rinfo.address);
    return;
  }
  const referral = type === 'NS' && zone && zone.ns.length > 0;
  const answers = type === 'DS' && zone ? zone.ds.map((data) => ({ type: 'DS', name, ttl: 300, data }) as packet.Answer) : [];
  const authorities: packet.Answer[] = referral ? zone.ns.map((data) => ({ type: 'NS', name, ttl: 300, data })) : [{ type: 'SOA', name: 'test', ttl: 300, data: PARENT_SOA }];
  const flags = (referral ? 0 : packet.AUTHORITATIVE_ANSWER) | (zone ? 0 : 3);
  s.send(packet.encode({ id: q.id, type: 'response', flags, questions: q.questions, answers, authorities }), rinfo.port, rinfo.address);
}

async function udp(host: string, port: number, onMessage?: (s: dgram.Socket, msg: Buffer, rinfo: dgram.RemoteInfo) => void): Promise<dgram.Socket> {
  const s = dgram.createSocket('udp4');
  if (onMessage) s.on('message', (msg, rinfo) => onMessage(s, msg, rinfo));
  await new Promise<void>((r) => s.bind(port, host, () => r()));
  return s;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-test-'));
  pg = process.env.ZONEDECK_TEST_POSTGRES ? await createPostgresDatabase(process.env.ZONEDECK_TEST_POSTGRES, { reusable: true }) : undefined;
  const resolverPort = await freePort();
  const parentPort = await freePort();
  resolver = await udp('127.0.0.1', resolverPort, (_s, msg, rinfo) => answerAsResolver(msg, rinfo));
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_TOKEN: 'off',
    RATE_LIMIT_ADDRESS: 'off',
    DNS_HOST: '127.0.0.1',
    DNS_PORT: '0',
    RESOLVER: `127.0.0.1:${resolverPort}`,
    NAMESERVERS: OURS.join(','),
    ...(pg ? { DATABASE_URL: pg.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
  });
  store = await openStore(config);
  const events = new ZoneEvents();
  // zonedeck's own DNS server, on the store the API writes: ns1's serial is the real one.
  dns = (await startDns(config, store, events, createLogger('silent')))!;
  // ns2 answers with authority, but an old serial; ns3 takes every question and answers none.
  others.push(
    await udp('127.0.0.3', dns.port, (s, msg, rinfo) => {
      const q = packet.decode(msg);
      const { name } = q.questions![0]!;
      const soa = { mname: 'ns1.zonedeck.test', rname: 'hostmaster.zonedeck.test', serial: OLD_SERIAL, refresh: 1, retry: 1, expire: 1, minimum: 1 };
      s.send(
        packet.encode({ id: q.id, type: 'response', flags: packet.AUTHORITATIVE_ANSWER, questions: q.questions, answers: [{ type: 'SOA', name, ttl: 300, data: soa }] }),
        rinfo.port,
        rinfo.address,
      );
    }),
    await udp('127.0.0.4', dns.port),
    await udp('127.0.0.5', parentPort, answerAsParent),
  );
  const services = createServices(
    store,
    {
      nameservers: config.nameservers,
      hostmaster: config.hostmaster,
      nsTtl: 3600,
      resolver: config.resolver,
      dataDir: dir,
      parentCheckNetworks: ['127.0.0.5/32'],
      delegation: { nameserverPort: dns.port, parentPort, renewAfterMs: 0 },
    },
    events,
  );
  app = buildApp({ services, config, log: createLogger('silent') });
  const hash = await hashPassword('password123');
  for (const name of ['olivia', 'stranger']) {
    const user = await store.users.insert({ username: name, password_hash: hash, created_at: new Date().toISOString() });
    tok[name] = (await services.accounts.createToken(user.id, 'test')).token;
  }
  const olivia = (await store.users.byUsername('olivia'))!;
  for (const name of ['pending.test', 'signed.test', 'broken.test', 'other.test']) {
    expect((await call('POST', '/domains', { body: { name } })).status).toBe(201);
  }
  tok.scoped = (await services.accounts.createToken(olivia.id, 'scoped', null, { zones: ['other.test'], read_only: true })).token;
});

afterAll(async () => {
  resolver?.close();
  for (const s of others) s.close();
  await dns?.close();
  await store?.close();
  await pg?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function call(method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? tok.olivia}` };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  return app.request(`http://localhost/api/v1${url}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
}

interface Report {
  checked_at: string;
  resolver: string | null;
  resolver_status: string;
  parent_zone: string | null;
  asked: string | null;
  parent: { ns: string[]; ds: string[] } | null;
  expected: { ns: string[]; ds: string[] };
  ns_match: boolean;
  ds_status: string;
  nameservers: Array<{ name: string; addresses: string[]; serial: number | null; status: string }>;
}

async function check(zone: string, refresh = true): Promise<Report> {
  const res = await call('GET', `/domains/${zone}/delegation${refresh ? '?refresh=1' : ''}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Report;
}

const serialOf = async (zone: string) => ((await (await call('GET', `/domains/${zone}`)).json()) as { serial_number: number }).serial_number;

describe('GET /domains/:name/delegation', () => {
  it('is pending while the parent lists other name servers, saying which, and delegated once it lists ours', async () => {
    PARENT.set('pending.test', { ns: ['ns1.other-dns.example.', 'NS2.other-dns.example'], ds: [] });
    const pending = await check('pending.test');
    expect(pending.resolver).toMatch(/^127\.0\.0\.1:\d+$/);
    // Asked of the parent's own server, found through the resolver.
    expect(pending).toMatchObject({ resolver_status: 'recursive', parent_zone: 'test', asked: 'ns.parent.test (127.0.0.5)' });
    expect(pending.ns_match).toBe(false);
    expect(pending.parent).toEqual({ ns: ['ns1.other-dns.example', 'ns2.other-dns.example'], ds: [] });
    expect(pending.expected).toEqual({ ns: OURS, ds: [] });
    expect(pending.ds_status).toBe('unsigned');
    // The servers the world is sent to: not ours, and they have no address.
    expect(pending.nameservers).toEqual([
      { name: 'ns1.other-dns.example', addresses: [], serial: null, status: 'no_answer' },
      { name: 'ns2.other-dns.example', addresses: [], serial: null, status: 'no_answer' },
    ]);

    // The registrar is told; the parent now lists our set.
    PARENT.set('pending.test', { ns: OURS.map((n) => `${n.toUpperCase()}.`), ds: [] });
    const serial = await serialOf('pending.test');
    // zonedeck's DNS thread has the zone by now (the API's change reached it).
    expect(await eventually(async () => (await askSerial({ host: '127.0.0.1', port: dns.port }, 'pending.test', 2000)) === serial)).toBe(true);
    const delegated = await check('pending.test');
    expect(delegated.ns_match).toBe(true);
    expect(delegated.parent!.ns).toEqual(OURS);
    expect(delegated.nameservers).toEqual([
      { name: 'ns1.zonedeck.test', addresses: ['127.0.0.1'], serial, status: 'in_sync' },
      { name: 'ns2.zonedeck.test', addresses: ['127.0.0.3'], serial: OLD_SERIAL, status: 'behind' },
      { name: 'ns3.zonedeck.test', addresses: ['127.0.0.4'], serial: null, status: 'no_answer' },
    ]);
  });

  it("asks a name server the zone's owner chose only at a public address", async () => {
    PARENT.set('pending.test', { ns: ['ns.inside.example'], ds: [] });
    const inside = await check('pending.test');
    expect(inside.nameservers).toEqual([{ name: 'ns.inside.example', addresses: ['127.0.0.1'], serial: null, status: 'no_answer' }]);
  });

  it('compares the DS at the parent with the zone keys: missing, matching, mismatching', async () => {
    expect((await call('PUT', '/domains/signed.test', { body: { dnssec_enabled: true } })).status).toBe(200);
    const domain = (await (await call('GET', '/domains/signed.test')).json()) as { ds_records: Array<{ key_tag: number; algorithm: number; digest_type: number; digest: string }> };
    const [key] = domain.ds_records;
    const ds = { keyTag: key!.key_tag, algorithm: key!.algorithm, digestType: key!.digest_type, digest: Buffer.from(key!.digest, 'hex') };
    const text = `${key!.key_tag} ${key!.algorithm} 2 ${key!.digest.toUpperCase()}`;

    PARENT.set('signed.test', { ns: OURS, ds: [] });
    const missing = await check('signed.test');
    expect(missing.expected.ds).toEqual([text]);
    expect(missing.ds_status).toBe('missing');

    PARENT.set('signed.test', { ns: OURS, ds: [ds] });
    const match = await check('signed.test');
    expect(match.parent!.ds).toEqual([text]);
    expect(match.ds_status).toBe('match');

    const wrong = Buffer.from(ds.digest);
    wrong[0] ^= 0xff;
    PARENT.set('signed.test', { ns: OURS, ds: [{ ...ds, digest: wrong }] });
    const mismatch = await check('signed.test');
    expect(mismatch.ds_status).toBe('mismatch');
    expect(mismatch.parent!.ds).toEqual([`${key!.key_tag} ${key!.algorithm} 2 ${wrong.toString('hex').toUpperCase()}`]);
  });

  it('keeps a result 30 s: a page refresh asks the resolver nothing, a change of the zone asks again', async () => {
    PARENT.set('other.test', { ns: OURS, ds: [] });
    const first = await check('other.test', false);
    const before = asked;
    const again = await check('other.test', false);
    expect(asked).toBe(before);
    expect(again.checked_at).toBe(first.checked_at);
    expect((await call('POST', '/domains/other.test/records', { body: { name: 'www', record_type: 'A', content: '192.0.2.1' } })).status).toBe(200);
    await check('other.test', false);
    expect(asked).toBeGreaterThan(before);
  });

  it("treats a malformed answer of the parent's server as none: the parent is unknown, nothing is matched", async () => {
    BROKEN.add('broken.test');
    const broken = await check('broken.test');
    expect(broken.parent).toBeNull();
    expect(broken.ns_match).toBe(false);
    expect(broken.ds_status).toBe('unknown');
    // Our own name servers are still asked, so the page can say whether they are ready.
    expect(broken.nameservers.map((n) => [n.name, n.status])).toEqual([
      ['ns1.zonedeck.test', 'in_sync'],
      ['ns2.zonedeck.test', 'behind'],
      ['ns3.zonedeck.test', 'no_answer'],
    ]);
  });

  it('follows the access rules of every zone path: another user 404, a token scoped to another zone 403, read-only reads', async () => {
    expect((await call('GET', '/domains/pending.test/delegation', { token: tok.stranger })).status).toBe(404);
    const res = await call('GET', '/domains/pending.test/delegation', { token: tok.scoped });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/does not include the zone pending\.test/);
    expect((await call('GET', '/domains/other.test/delegation', { token: tok.scoped })).status).toBe(200);
    expect((await call('GET', '/domains/nothing.test/delegation')).status).toBe(404);
    const bad = await call('GET', '/domains/other.test/delegation?refresh=yes');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({ refresh: 'must be 1' });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await app.request('http://localhost/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(doc.paths['/domains/{name}/delegation']).toBeDefined();
  });
});
