/**
 * The delegation check through RESOLVER: a zone whose parent lists exactly the configured
 * name servers shows `delegated: true` in the API; one pointing elsewhere stays false.
 */
import dgram from 'node:dgram';
import path from 'node:path';
import packet from 'dns-packet';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import { createDelegationCheck } from './delegation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';

/** What the fake parent-side resolver says about each zone. */
const PARENT: Record<string, string[]> = {
  'good.test': ['NS1.zonedeck.test.', 'ns2.zonedeck.test.'],
  'elsewhere.test': ['ns1.other-dns.example', 'ns2.other-dns.example'],
  'partial.test': ['ns1.zonedeck.test'],
};

let s: RunningServer;
let resolver: dgram.Socket;
let resolverPort: number;
let asked: string[] = [];

beforeAll(async () => {
  const port = (resolverPort = await freePort());
  resolver = dgram.createSocket('udp4');
  resolver.on('message', (msg, rinfo) => {
    const q = packet.decode(msg);
    const name = q.questions![0]!.name.toLowerCase();
    asked.push(name);
    const ns = PARENT[name];
    const reply = packet.encode({
      id: q.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (ns ? 0 : 3),
      questions: q.questions,
      answers: (ns ?? []).map((data) => ({ type: 'NS', name, ttl: 300, data })),
    });
    resolver.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => resolver.bind(port, '127.0.0.1', () => r()));
  s = await startServer({ RESOLVER: `127.0.0.1:${port}` });
});

afterAll(async () => {
  resolver?.close();
  await s?.stop();
});

const zone = async (name: string) => (await (await s.api('GET', `/domains/${name}`)).json()) as { delegated: boolean; delegation: string };
const delegated = async (name: string) => (await zone(name)).delegated;

describe('delegation check', () => {
  it('marks a zone delegated when the parent lists exactly our name servers', async () => {
    for (const name of ['good.test', 'elsewhere.test', 'partial.test', 'unknown.test']) {
      expect((await s.api('POST', '/domains', { name })).status).toBe(201);
    }
    expect(await eventually(() => delegated('good.test'))).toBe(true);
    // Every zone has been asked about by now; only the matching one is delegated.
    expect(await eventually(async () => ['elsewhere.test', 'partial.test', 'unknown.test'].every((n) => asked.includes(n)))).toBe(true);
    expect(await delegated('elsewhere.test')).toBe(false);
    expect(await delegated('partial.test')).toBe(false);
    expect(await delegated('unknown.test')).toBe(false);
    // Each answer is stored, the first too: "not delegated" is now known, not assumed.
    expect(await eventually(async () => (await zone('elsewhere.test')).delegation === 'not_delegated')).toBe(true);
    expect((await zone('good.test')).delegation).toBe('delegated');
    expect(await eventually(async () => (await zone('unknown.test')).delegation === 'not_delegated')).toBe(true);
  });

  it('checks every zone in a round, a slice of zones at a time', async () => {
    const store = await openSqliteStore(path.join(s.dir, 'zonedeck.db'));
    try {
      const changed: number[] = [];
      const check = createDelegationCheck(store, { resolver: `127.0.0.1:${resolverPort}`, nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], slice: 3, changed: (id) => changed.push(id) });
      for (const name of ['late1.test', 'late2.test']) expect((await s.api('POST', '/domains', { name })).status).toBe(201);
      // The server checks a new zone at once; this round starts once those first answers are stored.
      for (const name of ['late1.test', 'late2.test']) expect(await eventually(async () => (await zone(name)).delegation === 'not_delegated')).toBe(true);
      asked = [];
      await check.checkAll();
      expect([...new Set(asked)].sort()).toEqual(['elsewhere.test', 'good.test', 'late1.test', 'late2.test', 'partial.test', 'unknown.test']);
      // Every flag already says what the resolver does: nothing to store.
      expect(changed).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('takes nothing from a RESOLVER that does not recurse: an authoritative answer with RA clear leaves the zone unknown', async () => {
    // An authoritative server for the zone (zonedeck itself, say) answers its NS with AA and no RA.
    const authority = dgram.createSocket('udp4');
    authority.on('message', (msg, rinfo) => {
      const q = packet.decode(msg);
      const name = q.questions![0]!.name;
      const answers: packet.Answer[] = ['ns1.zonedeck.test', 'ns2.zonedeck.test'].map((data) => ({ type: 'NS', name, ttl: 300, data }));
      authority.send(packet.encode({ id: q.id, type: 'response', flags: packet.AUTHORITATIVE_ANSWER, questions: q.questions, answers }), rinfo.port, rinfo.address);
    });
    const port = await freePort();
    await new Promise<void>((r) => authority.bind(port, '127.0.0.1', () => r()));
    const store = await openSqliteStore(path.join(s.dir, 'zonedeck.db'));
    try {
      expect((await s.api('POST', '/domains', { name: 'looks-good.test' })).status).toBe(201);
      const row = (await store.domains.byName('looks-good.test'))!;
      const changed: number[] = [];
      const check = createDelegationCheck(store, { resolver: `127.0.0.1:${port}`, nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], changed: (id) => changed.push(id) });
      expect(await check.check(row.id)).toBeNull();
      expect(changed).toEqual([]);
    } finally {
      authority.close();
      await store.close();
    }
  });
});
