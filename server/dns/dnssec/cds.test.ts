/**
 * CDS and CDNSKEY (RFC 7344) at the apex of a signed zone, one per key, signed; the delete form
 * (RFC 8078 §4) for seven days after DNSSEC is turned off, unsigned, and then a new serial
 * without it.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/test-app';
import { dsDigest } from '../../services/dnssec/key-material';
import { resolve } from '../index/resolve';
import { T } from '../index/rrset';
import { Zone } from '../index/zone';
import { domainRow, IDENTITY, row } from '../../testing/zone-fixture';
import { ZoneIndex } from '../index/zone-index';
import { CDNSKEY, CDS } from './cds';
import { DELETE_SIGNAL_MS } from '../../services/dnssec/key-material';
import { signResolution } from './online';
import { refreshSignedZones } from '../../services/zones/resign';
import { testKey, verifies } from '../../testing/test-keys';

const DAY = 86_400_000;

function zoneWith(domain = domainRow('example.com')) {
  const zone = new Zone(domain, [row(1, '@', 'NS', 'ns1.zonedeck.test', 3600), row(1, 'www', 'A', '192.0.2.1')], IDENTITY);
  const index = new ZoneIndex();
  index.put(zone);
  return { zone, index };
}

const hex = (b: unknown) => (b as Buffer).toString('hex');

describe('CDS and CDNSKEY of a signed zone', () => {
  it('name each active key: the DS the parent should hold, and the DNSKEY itself', () => {
    const { zone } = zoneWith({ ...domainRow('example.com'), dnssec_enabled: true });
    const { key } = testKey('example.com');
    zone.setKeys([key]);
    const apex = zone.nodes.get('example.com')!;
    const cds = apex.get(CDS)!;
    expect(cds.data.map(hex)).toEqual([`${key.tag.toString(16).padStart(4, '0')}0d02${dsDigest('example.com', key.dnskey).toLowerCase()}`]);
    expect(apex.get(CDNSKEY)!.data).toEqual([key.dnskey]);
    expect(cds.ttl).toBe(apex.get(T.DNSKEY)!.ttl);
  });

  it('during a rollover name both keys, and are answered signed by both', () => {
    const { zone, index } = zoneWith({ ...domainRow('example.com'), dnssec_enabled: true });
    const a = testKey('example.com');
    const b = testKey('example.com');
    zone.setKeys([a.key, b.key]);
    expect(zone.nodes.get('example.com')!.get(CDS)!.data).toHaveLength(2);
    const res = signResolution(resolve(index, { qname: 'example.com', qtype: CDNSKEY }), CDNSKEY, zone.signer!);
    const [set, sig] = res.answer;
    expect(set!.type).toBe(CDNSKEY);
    expect(sig!.data).toHaveLength(2);
    expect(verifies(sig!.data[0] as Buffer, set!, Buffer.from(a.row.public_key, 'base64'), 'example.com')).toBe(true);
    expect(verifies(sig!.data[1] as Buffer, set!, Buffer.from(b.row.public_key, 'base64'), 'example.com')).toBe(true);
  });

  it('stand in the NSEC type bitmap of the apex (NODATA there lists them)', () => {
    const { zone, index } = zoneWith({ ...domainRow('example.com'), dnssec_enabled: true });
    zone.setKeys([testKey('example.com').key]);
    const res = resolve(index, { qname: 'example.com', qtype: T.TXT });
    expect(res.denial!.types).toEqual(expect.arrayContaining([T.SOA, T.NS, T.DNSKEY, CDS, CDNSKEY]));
  });
});

describe('the delete form after DNSSEC is turned off', () => {
  it('is CDS 0 0 0 00 and CDNSKEY 0 3 0 AA== for seven days, then gone', () => {
    const off = new Date(Date.now() - DAY).toISOString();
    const { zone, index } = zoneWith({ ...domainRow('example.com'), dnssec_enabled: true });
    zone.setKeys([testKey('example.com').key]);
    zone.setDomain({ ...zone.domain, dnssec_enabled: false, dnssec_disabled_at: off });
    zone.setKeys([]);
    const apex = zone.nodes.get('example.com')!;
    expect(apex.get(CDS)!.data.map(hex)).toEqual(['0000000000']);
    expect(apex.get(CDNSKEY)!.data.map(hex)).toEqual(['0000030000']);
    expect(apex.has(T.DNSKEY)).toBe(false);
    // Answered, unsigned: there is no key left to sign with.
    expect(resolve(index, { qname: 'example.com', qtype: CDS }).answer[0]!.type).toBe(CDS);
    expect(zone.signer).toBeNull();

    // A week and a bit later the next load (or serial) of the zone no longer has it.
    zone.setDomain({ ...zone.domain, dnssec_disabled_at: new Date(Date.now() - DELETE_SIGNAL_MS - 1000).toISOString() });
    expect(apex.has(CDS) || apex.has(CDNSKEY)).toBe(false);
    expect(resolve(index, { qname: 'example.com', qtype: CDS }).denial).toBeDefined();
  });

  it('is loaded with the zone while due, and never for a zone that was never signed', () => {
    const recent = zoneWith({ ...domainRow('example.com'), dnssec_disabled_at: new Date().toISOString() });
    expect(recent.zone.nodes.get('example.com')!.has(CDS)).toBe(true);
    const never = zoneWith();
    expect(never.zone.nodes.get('example.com')!.has(CDS)).toBe(false);
  });

  it('is withdrawn by a new serial once its week is over, once, in a change set of its own', async () => {
    const t = await createTestApp();
    try {
      await t.user('alice');
      await t.request('POST', '/api/v1/domains', { body: { name: 'example.com', dnssec_enabled: true } });
      expect((await t.request('PUT', '/api/v1/domains/example.com', { body: { dnssec_enabled: false } })).status).toBe(200);
      const off = (await t.services.store.domains.byName('example.com'))!;
      expect(Date.now() - Date.parse(off.dnssec_disabled_at!)).toBeLessThan(60_000);

      expect(await refreshSignedZones(t.services.store, t.services.changes)).toEqual([]);
      // Eight days on: DNSSEC went off, and the zone last changed, a week and a day ago.
      const ago = new Date(Date.now() - DELETE_SIGNAL_MS - DAY).toISOString();
      await t.forge.domains.update(off, { dnssec_disabled_at: ago, updated_at: ago });
      const bumped = await refreshSignedZones(t.services.store, t.services.changes);
      expect(bumped.map((z) => z.name)).toEqual(['example.com']);
      expect(bumped[0]!.serial_number).toBeGreaterThan(off.serial_number);
      expect(await refreshSignedZones(t.services.store, t.services.changes)).toEqual([]);
      const [latest] = await (await t.request('GET', '/api/v1/domains/example.com/changes')).json();
      expect(latest).toMatchObject({ source: 'dnssec', comment: expect.stringMatching(/delete signal \(RFC 8078 §4\) is withdrawn 7 days after/) });

      // Turning DNSSEC on again clears the time: a signed zone publishes its keys, not the delete form.
      await t.request('PUT', '/api/v1/domains/example.com', { body: { dnssec_enabled: true } });
      expect((await t.services.store.domains.byName('example.com'))!.dnssec_disabled_at).toBeNull();
    } finally {
      await t.close();
    }
  });
});
