/**
 * The zone's DNSSEC policy reaches the DNS server: the algorithm of the keys it signs with (P-384,
 * Ed25519 signatures that verify against the published DNSKEY) and the denial it proves with (NSEC3
 * with NXDOMAIN once the policy says nsec3, compact again when it says compact).
 */
import packet from 'dns-packet';
import { verify } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandler } from '../wire/handler';
import { ZoneIndex } from '../index/zone-index';
import { syncZones, type ZoneSync } from './zone-sync';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { dnskeyPublicKey } from '../../services/dnssec/key-material';
import { parseRrsig } from '../../testing/test-keys';
import { canonicalRRset } from '../dnssec/canonical';
import { signedData } from '../dnssec/sign';

let t: TestApp;
let sync: ZoneSync;
let index: ZoneIndex;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  index = new ZoneIndex();
  sync = await syncZones({ store: t.services.store, events: t.services.events, index, identity: { primary: 'ns1.zonedeck.test', hostmaster: 'hostmaster.zonedeck.test' } });
});
afterEach(async () => {
  sync.stop();
  await t.close();
});

type Answer = { type: string; name: string; ttl: number; data: any };
function ask(name: string, type: string): { rcode: string; answers: Answer[]; authorities: Answer[] } {
  const handler = createHandler(index, { transferAllowed: () => false });
  const msg = packet.encode({
    id: 1,
    type: 'query',
    questions: [{ name, type: type as 'A' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK, options: [] } as unknown as packet.Answer],
  });
  const r = packet.decode(handler.udp(msg, '127.0.0.1')!) as any;
  return { rcode: r.rcode, answers: r.answers, authorities: r.authorities };
}

describe('the DNSSEC policy in DNS', () => {
  for (const [algorithm, number] of [
    ['ecdsap384sha384', 14],
    ['ed25519', 15],
  ] as const) {
    it(`signs with ${algorithm} keys: the RRSIG over the SOA verifies with the published DNSKEY`, async () => {
      expect((await t.request('POST', '/api/v1/domains', { body: { name: 'example.com' } })).status).toBe(201);
      expect((await t.request('PUT', '/api/v1/domains/example.com', { body: { dnssec_enabled: true, dnssec_policy: { algorithm } } })).status).toBe(200);
      await sync.settled();
      const dnskey = ask('example.com', 'DNSKEY').answers.find((a) => a.type === 'DNSKEY')!;
      expect(dnskey.data.algorithm).toBe(number);
      const soa = index.get('example.com')!.soa;
      const sig = ask('example.com', 'SOA').answers.find((a) => a.type === 'RRSIG')!;
      expect(sig.data.algorithm).toBe(number);
      const codec = (packet as unknown as { rrsig: { encode(d: unknown): Buffer } }).rrsig;
      const rdata = codec.encode(sig.data).subarray(2);
      const parsed = parseRrsig(rdata, 'example.com');
      const data = signedData(parsed.prefix, canonicalRRset(soa, soa.name, soa.ttl));
      const key = dnskeyPublicKey(number, dnskey.data.key);
      const ok = number === 15 ? verify(null, data, key, parsed.signature) : verify('sha384', data, { key, dsaEncoding: 'ieee-p1363' }, parsed.signature);
      expect(ok).toBe(true);
    });
  }

  it('proves non-existence with NSEC3 (NXDOMAIN, 0 iterations, no salt) once the policy says nsec3, and compactly again after', async () => {
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'example.com', dnssec_enabled: true } })).status).toBe(201);
    await sync.settled();
    expect(ask('nope.example.com', 'A').authorities.map((a) => a.type)).toContain('NSEC');
    expect((await t.request('PUT', '/api/v1/domains/example.com', { body: { dnssec_policy: { denial: 'nsec3' } } })).status).toBe(200);
    await sync.settled();
    const nx = ask('nope.example.com', 'A');
    expect(nx.rcode).toBe('NXDOMAIN');
    const nsec3 = nx.authorities.filter((a) => a.type === 'NSEC3');
    expect(nsec3.length).toBeGreaterThanOrEqual(2);
    expect(nsec3.every((a) => a.data.iterations === 0 && a.data.salt.length === 0)).toBe(true);
    expect(ask('example.com', 'NSEC3PARAM').answers.some((a) => a.type === 'NSEC3PARAM')).toBe(true);
    expect((await t.request('PUT', '/api/v1/domains/example.com', { body: { dnssec_policy: { denial: 'compact' } } })).status).toBe(200);
    await sync.settled();
    expect(ask('nope.example.com', 'A').authorities.map((a) => a.type)).toContain('NSEC');
    expect(ask('example.com', 'NSEC3PARAM').answers.some((a) => a.type === 'NSEC3PARAM')).toBe(false);
  });
});
