/**
 * ALIAS in the DNS server: the target's addresses looked up (a fake lookup and a clock here;
 * alias-lookup.test.ts speaks to a UDP resolver), answered at the apex or any other name, signed,
 * kept for the target's TTL within a floor and a cap, refreshed ahead of expiry, served stale
 * while the resolver fails, NODATA where the target has none, SERVFAIL where nothing is known.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AliasResolver, STALE_TTL } from './alias';
import type { Lookup } from './alias-lookup';
import { axfrMessages } from '../transfer/axfr';
import { signResolution } from '../dnssec/online';
import { testKey, verifies } from '../../testing/test-keys';
import { parseQuery } from '../wire/query';
import { resolve } from '../index/resolve';
import { RCODE, T } from '../index/rrset';
import { Zone } from '../index/zone';
import { domainRow, IDENTITY, row } from '../../testing/zone-fixture';
import { ZoneIndex } from '../index/zone-index';
import packet from 'dns-packet';

type Answers = Record<string, Lookup | (() => Lookup)>;

/** A resolver that answers from `answers` ("name TYPE" keys), counting questions, on a clock we move. */
function setup(answers: Answers, opts: { ttl?: number } = {}) {
  let now = 1_000_000;
  const asked: string[] = [];
  const index = new ZoneIndex();
  const changed: string[] = [];
  const aliases = new AliasResolver({
    resolver: { host: '127.0.0.1', port: 53 },
    onChange: (z) => changed.push(z.name),
    isCurrent: (z) => index.get(z.name) === z,
    clock: () => now,
    floorTtl: 30,
    capTtl: 3600,
    retryMs: 3_600_000, // the tests drive refreshes by hand
    async lookup(_r, name, type) {
      asked.push(`${name} ${type}`);
      const a = answers[`${name} ${type}`] ?? { kind: 'answer', addresses: [], ttl: 300 };
      return typeof a === 'function' ? a() : a;
    },
  });
  const identity = { ...IDENTITY, aliases };
  const load = (target = 'lb.example.net', name = 'example.com', id = 1) => {
    const zone = new Zone(domainRow(name, id), [row(id, '@', 'NS', 'ns1.zonedeck.test', 3600), row(id, '@', 'ALIAS', target, opts.ttl ?? 300), row(id, 'www', 'A', '192.0.2.1')], identity);
    index.put(zone);
    return zone;
  };
  const ask = (qtype: number, name = 'example.com') => resolve(index, { qname: name, qtype });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  // Refreshes are timers; the tests call the due one directly.
  const refresh = (target: string, type: 'A' | 'AAAA') => (aliases as unknown as { refresh(t: string, c: number, y: string): Promise<void> }).refresh(target, type === 'A' ? T.A : T.AAAA, type);
  return { index, aliases, load, ask, settle, refresh, asked, changed, advance: (ms: number) => (now += ms) };
}

const ok = (addresses: string[], ttl = 300): Lookup => ({ kind: 'answer', addresses, ttl });
let closeMe: AliasResolver | undefined;
afterEach(() => closeMe?.close());

describe('ALIAS answers at the apex', () => {
  it('answer A and AAAA with the target’s addresses, TTL the lesser of the target’s and the record’s', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7', '192.0.2.8'], 120), 'lb.example.net AAAA': ok(['2001:db8::7'], 900) });
    closeMe = s.aliases;
    s.load();
    await s.settle();
    const a = s.ask(T.A);
    expect(a.rcode).toBe(RCODE.NOERROR);
    expect(a.answer).toEqual([{ name: 'example.com', type: T.A, ttl: 120, data: ['192.0.2.7', '192.0.2.8'] }]);
    // The ALIAS record's own TTL (300) caps the target's 900.
    expect(s.ask(T.AAAA).answer[0]).toMatchObject({ type: T.AAAA, ttl: 300, data: ['2001:db8::7'] });
    // ALIAS itself is not a type on the wire, and names below the apex are untouched.
    expect(s.ask(65401).answer).toEqual([]);
    expect(s.ask(T.A, 'www.example.com').answer[0]!.data).toEqual(['192.0.2.1']);
  });

  it('answer SERVFAIL until the first lookup is done, and NODATA for a type the target lacks', async () => {
    const s = setup({ 'cdn.example.net A': ok(['198.51.100.1']) });
    closeMe = s.aliases;
    s.load('cdn.example.net');
    expect(s.ask(T.A).rcode).toBe(RCODE.SERVFAIL);
    await s.settle();
    expect(s.ask(T.A).rcode).toBe(RCODE.NOERROR);
    const aaaa = s.ask(T.AAAA);
    expect(aaaa.rcode).toBe(RCODE.NOERROR);
    expect(aaaa.answer).toEqual([]);
    expect(aaaa.denial).toEqual({ name: 'example.com', types: expect.arrayContaining([T.A, T.NS, T.SOA]) });
    expect(aaaa.denial!.types).not.toContain(T.AAAA);
  });

  it('keep the target’s TTL between the floor and the cap, and refresh at three quarters of it', async () => {
    const answers: Answers = { 'lb.example.net A': ok(['192.0.2.7'], 5), 'lb.example.net AAAA': ok([], 86_400) };
    const s = setup(answers, { ttl: 86_400 });
    closeMe = s.aliases;
    s.load();
    await s.settle();
    // A 5-second TTL is held at the 30-second floor; a day-long negative TTL at the one-hour cap.
    expect(s.ask(T.A).answer[0]!.ttl).toBe(30);
    const timers = (s.aliases as unknown as { targets: Map<string, Map<number, { timer: { _idleTimeout: number }; expiresAt: number }>> }).targets.get('lb.example.net')!;
    expect(timers.get(T.A)!.timer._idleTimeout).toBe(22_500);
    expect(timers.get(T.AAAA)!.timer._idleTimeout).toBe(2_700_000);
    // A changed address shows after the refresh, and is news for the secondaries (a new serial).
    expect(s.changed).toEqual([]);
    answers['lb.example.net A'] = ok(['192.0.2.9'], 60);
    await s.refresh('lb.example.net', 'A');
    expect(s.ask(T.A).answer[0]).toMatchObject({ ttl: 60, data: ['192.0.2.9'] });
    expect(s.changed).toEqual(['example.com']);
  });

  it('keep the same RRset object while the addresses stay, so its signature and cached answers hold', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7']) });
    closeMe = s.aliases;
    const zone = s.load();
    await s.settle();
    const first = s.ask(T.A).answer[0];
    const gen = zone.gen;
    await s.refresh('lb.example.net', 'A');
    expect(s.ask(T.A).answer[0]).toBe(first);
    expect(zone.gen).toBe(gen);
  });

  it('serve the last addresses with a 30-second TTL while the resolver fails, for a day, then SERVFAIL', async () => {
    let failing = false;
    const s = setup({ 'lb.example.net A': () => (failing ? { kind: 'failed', reason: 'timed out' } : ok(['192.0.2.7'], 300)) });
    closeMe = s.aliases;
    s.load();
    await s.settle();
    failing = true;
    s.advance(200_000);
    await s.refresh('lb.example.net', 'A');
    // Not yet expired: served as it was.
    expect(s.ask(T.A).answer[0]).toMatchObject({ ttl: 300, data: ['192.0.2.7'] });
    s.advance(200_000);
    await s.refresh('lb.example.net', 'A');
    expect(s.ask(T.A).answer[0]).toMatchObject({ ttl: STALE_TTL, data: ['192.0.2.7'] });
    s.advance(86_400_000);
    await s.refresh('lb.example.net', 'A');
    expect(s.ask(T.A).rcode).toBe(RCODE.SERVFAIL);
    failing = false;
    await s.refresh('lb.example.net', 'A');
    expect(s.ask(T.A).answer[0]).toMatchObject({ ttl: 300, data: ['192.0.2.7'] });
  });

  it('look each target up once for every zone aliasing it, and hand a reloaded zone the known addresses at once', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7']) });
    closeMe = s.aliases;
    s.load('lb.example.net', 'example.com', 1);
    s.load('lb.example.net', 'example.org', 2);
    await s.settle();
    expect(s.asked.filter((q) => q === 'lb.example.net A')).toHaveLength(1);
    expect(s.ask(T.A, 'example.org').answer[0]!.data).toEqual(['192.0.2.7']);
    // A reload (another server node's change) builds a new zone object: no SERVFAIL gap.
    s.load('lb.example.net', 'example.com', 1);
    expect(s.ask(T.A).answer[0]!.data).toEqual(['192.0.2.7']);
    expect(s.asked.filter((q) => q === 'lb.example.net A')).toHaveLength(1);
  });

  it('follow a changed target, and drop the addresses when the ALIAS goes', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7']), 'other.example.net A': ok(['203.0.113.5']) });
    closeMe = s.aliases;
    const zone = s.load();
    await s.settle();
    zone.replaceName('@', [row(1, '@', 'NS', 'ns1.zonedeck.test', 3600), row(1, '@', 'ALIAS', 'other.example.net', 300)]);
    await s.settle();
    expect(s.ask(T.A).answer[0]!.data).toEqual(['203.0.113.5']);
    zone.replaceName('@', [row(1, '@', 'NS', 'ns1.zonedeck.test', 3600), row(1, '@', 'A', '192.0.2.99')]);
    expect(zone.aliases.size).toBe(0);
    expect(s.ask(T.A).answer[0]!.data).toEqual(['192.0.2.99']);
    expect(s.ask(T.AAAA).rcode).toBe(RCODE.NOERROR);
  });

  it('are signed online in a signed zone, and the NODATA proof lists the synthesized types', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7']) });
    closeMe = s.aliases;
    const zone = s.load();
    const { key, row: keyRow } = testKey('example.com');
    zone.setKeys([key]);
    await s.settle();
    const signed = signResolution(s.ask(T.A), T.A, zone.signer!);
    const [set, sig] = signed.answer;
    expect(verifies(sig!.data[0] as Buffer, set!, Buffer.from(keyRow.public_key, 'base64'), 'example.com')).toBe(true);
    expect(signResolution(s.ask(T.TXT), T.TXT, zone.signer!).authority.map((x) => x.type)).toContain(T.NSEC);
    expect(s.ask(T.TXT).denial!.types).toContain(T.A);
  });

  it('go to secondaries in AXFR as plain A records, and ALIAS itself does not', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7']), 'lb.example.net AAAA': ok(['2001:db8::7']) });
    closeMe = s.aliases;
    const zone = s.load();
    await s.settle();
    const raw = packet.encode({ id: 1, type: 'query', questions: [{ name: 'example.com', type: 'AXFR' }] });
    const parsed = parseQuery(raw);
    if (parsed.kind !== 'query') throw new Error('bad query');
    const records = axfrMessages(raw, parsed.query, zone).flatMap((m) => packet.decode(m).answers ?? []);
    const apex = records.filter((r) => r.name === 'example.com').map((r) => `${r.type} ${(r as { data: unknown }).data}`);
    expect(apex).toEqual(expect.arrayContaining(['A 192.0.2.7', 'AAAA 2001:db8::7']));
    expect(records.some((r) => (r.type as unknown) === 65401 || String(r.type).includes('65401'))).toBe(false);
  });
});

describe('ALIAS answers below the apex', () => {
  const zoneWith = (s: ReturnType<typeof setup>) => {
    const zone = new Zone(
      domainRow('example.com'),
      [
        row(1, '@', 'NS', 'ns1.zonedeck.test', 3600),
        row(1, 'www', 'ALIAS', 'lb.example.net'),
        row(1, 'www', 'TXT', 'v=site'),
        row(1, 'cdn', 'ALIAS', 'lb.example.net'),
        row(1, '*.apps', 'ALIAS', 'ingress.example.net'),
        row(1, 'v6only', 'ALIAS', 'v6.example.net'),
      ],
      { ...IDENTITY, aliases: s.aliases },
    );
    s.index.put(zone);
    return zone;
  };

  it('answer A and AAAA at the name with the target’s addresses, and its other types from its own records', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7']), 'lb.example.net AAAA': ok(['2001:db8::7']), 'v6.example.net AAAA': ok(['2001:db8::6']) });
    closeMe = s.aliases;
    zoneWith(s);
    expect(s.ask(T.A, 'www.example.com').rcode).toBe(RCODE.SERVFAIL);
    await s.settle();
    expect(s.ask(T.A, 'www.example.com').answer).toEqual([{ name: 'www.example.com', type: T.A, ttl: 300, data: ['192.0.2.7'] }]);
    expect(s.ask(T.AAAA, 'cdn.example.com').answer[0]).toMatchObject({ name: 'cdn.example.com', data: ['2001:db8::7'] });
    expect(s.ask(T.TXT, 'www.example.com').answer[0]!.type).toBe(T.TXT);
    // One lookup per target and type, however many names alias it.
    expect(s.asked.filter((q) => q === 'lb.example.net A')).toHaveLength(1);
    // A name whose ALIAS target has no address of a type exists: NODATA, not NXDOMAIN.
    const a = s.ask(T.A, 'v6only.example.com');
    expect([a.rcode, a.answer, a.denial]).toEqual([RCODE.NOERROR, [], { name: 'v6only.example.com', types: [T.AAAA] }]);
    expect(s.ask(T.MX, 'cdn.example.com').denial).toEqual({ name: 'cdn.example.com', types: [T.A, T.AAAA] });
    // The apex has no ALIAS here: no SERVFAIL for its addresses.
    expect(s.ask(T.A).rcode).toBe(RCODE.NOERROR);
  });

  it('at a wildcard, answer every name it stands for (RFC 4592 §3.3.1)', async () => {
    const s = setup({ 'ingress.example.net A': ok(['198.51.100.4']) });
    closeMe = s.aliases;
    zoneWith(s);
    expect(s.ask(T.A, 'shop.apps.example.com').rcode).toBe(RCODE.SERVFAIL);
    await s.settle();
    expect(s.ask(T.A, 'shop.apps.example.com').answer).toEqual([{ name: 'shop.apps.example.com', type: T.A, ttl: 300, data: ['198.51.100.4'] }]);
    expect(s.ask(T.AAAA, 'shop.apps.example.com')).toMatchObject({ rcode: RCODE.NOERROR, answer: [] });
  });

  it('tell of a changed address at any name (a new serial), and forget a name whose ALIAS goes', async () => {
    const answers: Answers = { 'lb.example.net A': ok(['192.0.2.7']) };
    const s = setup(answers);
    closeMe = s.aliases;
    const zone = zoneWith(s);
    await s.settle();
    answers['lb.example.net A'] = ok(['192.0.2.9']);
    await s.refresh('lb.example.net', 'A');
    expect(s.ask(T.A, 'cdn.example.com').answer[0]!.data).toEqual(['192.0.2.9']);
    expect(s.changed).toContain('example.com');
    zone.replaceName('cdn', []);
    expect(s.ask(T.A, 'cdn.example.com').rcode).toBe(RCODE.NXDOMAIN);
    expect(s.ask(T.A, 'www.example.com').answer[0]!.data).toEqual(['192.0.2.9']);
  });

  it('are signed online, and go to secondaries in AXFR as plain A records at the name', async () => {
    const s = setup({ 'lb.example.net A': ok(['192.0.2.7']), 'ingress.example.net A': ok(['198.51.100.4']) });
    closeMe = s.aliases;
    const zone = zoneWith(s);
    const { key, row: keyRow } = testKey('example.com');
    zone.setKeys([key]);
    await s.settle();
    const [set, sig] = signResolution(s.ask(T.A, 'www.example.com'), T.A, zone.signer!).answer;
    expect(verifies(sig!.data[0] as Buffer, set!, Buffer.from(keyRow.public_key, 'base64'), 'example.com')).toBe(true);
    const raw = packet.encode({ id: 1, type: 'query', questions: [{ name: 'example.com', type: 'AXFR' }] });
    const parsed = parseQuery(raw);
    if (parsed.kind !== 'query') throw new Error('bad query');
    const records = axfrMessages(raw, parsed.query, zone).flatMap((m) => packet.decode(m).answers ?? []);
    const a = records.filter((r) => r.type === 'A').map((r) => `${r.name} ${(r as { data: unknown }).data}`);
    expect(a.sort()).toEqual(['*.apps.example.com 198.51.100.4', 'cdn.example.com 192.0.2.7', 'www.example.com 192.0.2.7']);
    // v6only has no address: nothing of it goes out, not even an NSEC.
    expect(records.some((r) => r.name === 'v6only.example.com')).toBe(false);
  });
});

describe('without RESOLVER', () => {
  it('every ALIAS answers SERVFAIL (the API refuses new ones)', async () => {
    const index = new ZoneIndex();
    const aliases = new AliasResolver({ resolver: null, isCurrent: () => true });
    const zone = new Zone(domainRow('example.com'), [row(1, '@', 'ALIAS', 'lb.example.net', 300)], { ...IDENTITY, aliases });
    index.put(zone);
    await new Promise((r) => setTimeout(r, 0));
    expect(resolve(index, { qname: 'example.com', qtype: T.A }).rcode).toBe(RCODE.SERVFAIL);
    aliases.close();
  });
});
