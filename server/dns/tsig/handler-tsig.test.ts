/**
 * TSIG in the query handler, without sockets: signed queries answered signed (and never from
 * or into the cache), the error answers of RFC 8945 §5.2, truncation leaving room for the TSIG,
 * and zone transfers allowed to a key of the zone's owner from any address.
 */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../core/scope';
import { createHandler } from '../wire/handler';
import type { DnsKey } from './keyring';
import { findTsig, signRequest, TSIG_ERROR, verifyAnswer, type TsigRecord } from './tsig';
import { exampleIndex } from '../../testing/zone-fixture';

const NOW = 1_800_000_000;
const key = (name: string, userId = 1, scope: Scope = {}): DnsKey => ({ name, algorithm: 'hmac-sha256', secret: Buffer.alloc(32, name.length), userId, scope });
const KEYS = [
  key('owner.key'),
  key('stranger.key', 2),
  key('acme.key', 1, { names: ['_acme-challenge'], types: ['TXT'] }),
  key('other-zone.key', 1, { zones: ['example.org'] }),
  key('lan.key', 1, { allowed_ips: ['10.0.0.0/8'] }),
];

function setup() {
  const index = exampleIndex();
  const keys = new Map(KEYS.map((k) => [k.name, k]));
  const handler = createHandler(index, { transferAllowed: (a) => a === '127.0.0.1', keys, clock: () => NOW });
  return { handler };
}

function query(name: string, type = 'A', edns: number | false = 1232): Buffer {
  return Buffer.from(
    packet.encode({
      id: 4242,
      type: 'query',
      flags: packet.RECURSION_DESIRED,
      questions: [{ name, type: type as 'A', class: 'IN' }],
      additionals: edns === false ? [] : [{ type: 'OPT', name: '.', udpPayloadSize: edns, flags: 0, options: [] } as unknown as packet.Answer],
    }),
  );
}

const signed = (msg: Buffer, k: DnsKey, at = NOW) => signRequest(msg, k, () => at);
const tsigOf = (msg: Buffer) => findTsig(msg) as TsigRecord;
const rcode = (msg: Buffer) => msg[3]! & 0x0f;

describe('signed queries', () => {
  it('are answered signed, verifiably, and kept out of the answer cache', async () => {
    const { handler } = setup();
    const k = KEYS[0]!;
    const { message, mac } = signed(query('www.example.com'), k);
    const out = handler.udp(message, '192.0.2.9')!;
    expect(verifyAnswer([out], k, mac, () => NOW)).toBe(0);
    const decoded = packet.decode(out);
    expect(decoded.answers!.map((a) => (a as { data: unknown }).data)).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(handler.cache.size).toBe(0);
    // The same question unsigned is cached and never carries a TSIG.
    const plain = handler.udp(query('www.example.com'), '192.0.2.9')!;
    expect(findTsig(plain)).toBeNull();
    expect(handler.cache.size).toBe(1);
    const again = handler.udp(signed(query('www.example.com'), k).message, '192.0.2.9')!;
    expect(tsigOf(again).error).toBe(0);
    expect(tsigOf(again).mac).toHaveLength(32);
    // Over TCP too.
    const tcp = signed(query('mail.example.com'), k);
    expect(verifyAnswer(await handler.tcp(tcp.message, '192.0.2.9'), k, tcp.mac, () => NOW)).toBe(0);
  });

  it('are answered with TC, still signed, when the answer and its TSIG do not fit', () => {
    const { handler } = setup();
    const k = KEYS[0]!;
    const { message, mac } = signed(query('big.example.com', 'TXT', false), k);
    const out = handler.udp(message, '192.0.2.9')!;
    expect(out.length).toBeLessThanOrEqual(512);
    expect(out[2]! & 0x02).toBe(0x02);
    expect(verifyAnswer([out], k, mac, () => NOW)).toBe(0);
  });

  it('get NOTAUTH with BADKEY or BADSIG unsigned, BADTIME signed, and FORMERR for a misplaced TSIG', () => {
    const { handler } = setup();
    const unknown = handler.udp(signed(query('www.example.com'), key('nobody.key')).message, '192.0.2.9')!;
    expect(rcode(unknown)).toBe(9);
    expect(tsigOf(unknown)).toMatchObject({ error: TSIG_ERROR.BADKEY, mac: Buffer.alloc(0) });

    const bad = signed(query('www.example.com'), KEYS[0]!).message;
    bad[bad.length - 20] ^= 1; // inside the MAC
    const badSig = handler.udp(bad, '192.0.2.9')!;
    expect(rcode(badSig)).toBe(9);
    expect(tsigOf(badSig)).toMatchObject({ error: TSIG_ERROR.BADSIG, mac: Buffer.alloc(0) });
    expect(packet.decode(badSig).questions![0]!.name).toBe('www.example.com');

    const late = signed(query('www.example.com'), KEYS[0]!, NOW - 301);
    const badTime = handler.udp(late.message, '192.0.2.9')!;
    expect(rcode(badTime)).toBe(9);
    expect(tsigOf(badTime)).toMatchObject({ error: TSIG_ERROR.BADTIME, timeSigned: NOW - 301 });
    expect(tsigOf(badTime).other.readUIntBE(0, 6)).toBe(NOW);
    expect(tsigOf(badTime).mac).toHaveLength(32);

    const { message } = signed(query('www.example.com', 'A', false), KEYS[0]!);
    const trailing = Buffer.concat([message, Buffer.from('0000290200000000000000', 'hex')]);
    trailing.writeUInt16BE(2, 10);
    expect(rcode(handler.udp(trailing, '192.0.2.9')!)).toBe(1);
  });

  it('stay silent for a signed response, and sign the errors of a verified request', () => {
    const { handler } = setup();
    const k = KEYS[0]!;
    const response = signed(query('www.example.com'), k).message;
    response[2]! |= 0x80;
    expect(handler.udp(response, '192.0.2.9')).toBeNull();
    const refused = signed(query('www.example.net'), k);
    const out = handler.udp(refused.message, '192.0.2.9')!;
    expect(rcode(out)).toBe(5);
    expect(verifyAnswer([out], k, refused.mac, () => NOW)).toBe(0);
  });
});

describe('signed zone transfers', () => {
  const axfr = async (k: DnsKey, address = '198.51.100.7', type = 'AXFR') => {
    const { handler } = setup();
    const { message, mac } = signed(query('example.com', type, false), k);
    return { out: await handler.tcp(message, address), mac };
  };

  it('are allowed from any address with a key of the zone owner, every message signed', async () => {
    const k = KEYS[0]!;
    const { out, mac } = await axfr(k);
    expect(rcode(out[0]!)).toBe(0);
    expect(verifyAnswer(out, k, mac, () => NOW)).toBe(0);
    const records = out.flatMap((m) => packet.decode(m).answers!);
    expect(records[0]!.type).toBe('SOA');
    expect(records.at(-1)!.type).toBe('SOA');
    expect(records.length).toBeGreaterThan(20);
    // IXFR too (answered here with the whole zone: this handler has no history).
    const ixfr = await axfr(k, '198.51.100.7', 'IXFR');
    expect(rcode(ixfr.out[0]!)).toBe(0);
    expect(verifyAnswer(ixfr.out, k, ixfr.mac, () => NOW)).toBe(0);
  });

  it.each([
    ["another user's key", 'stranger.key'],
    ['a key limited to names and types', 'acme.key'],
    ['a key for other zones', 'other-zone.key'],
    ['a key limited to other networks', 'lan.key'],
  ])('are refused, signed, with %s', async (_, name) => {
    const k = KEYS.find((x) => x.name === name)!;
    const { out, mac } = await axfr(k);
    expect(out).toHaveLength(1);
    expect(rcode(out[0]!)).toBe(5);
    expect(verifyAnswer(out, k, mac, () => NOW)).toBe(0);
  });

  it('stay allowed from AXFR_ALLOW addresses, whoever signs', async () => {
    const k = KEYS[1]!;
    const { out, mac } = await axfr(k, '127.0.0.1');
    expect(rcode(out[0]!)).toBe(0);
    expect(verifyAnswer(out, k, mac, () => NOW)).toBe(0);
  });

  it('of a zone too large for one message are split, each part under 65535 octets with its TSIG', async () => {
    const zone = exampleIndex().get('example.com')!;
    // Grow the zone until a transfer needs several messages.
    for (let i = 0; i < 400; i++) zone.replaceName(`t${i}`, [{ id: 10_000 + i, name: `t${i}`, record_type: 'TXT', content: 'z'.repeat(200), ttl: 60 }]);
    const index = exampleIndex();
    index.put(zone);
    const big = createHandler(index, { transferAllowed: () => false, keys: new Map([[KEYS[0]!.name, KEYS[0]!]]), clock: () => NOW });
    const { message, mac } = signed(query('example.com', 'AXFR', false), KEYS[0]!);
    const out = await big.tcp(message, '198.51.100.7');
    expect(out.length).toBeGreaterThan(1);
    for (const m of out) expect(m.length).toBeLessThanOrEqual(65535);
    expect(verifyAnswer(out, KEYS[0]!, mac, () => NOW)).toBe(0);
  });
});
