/**
 * Reading UPDATE messages (RFC 2136 §2, §3.1–§3.4.1) and answering them in the handler: unsigned
 * REFUSED, signed ones handed to the services and answered signed; format errors and names
 * outside the zone caught before the store is asked; random and mutated messages never crash.
 */
import packet from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UpdateRequest } from '../../services/changes/dynamic-updates';
import { createHandler } from '../wire/handler';
import type { DnsKey } from '../tsig/keyring';
import { signRequest, verifyAnswer } from '../tsig/tsig';
import { parseUpdate } from './update-message';
import { exampleIndex } from '../../testing/zone-fixture';

type RR = { name: string; type: string; class?: string; ttl?: number; data?: unknown };

/** An UPDATE message: dns-packet writes the zone as the question, prerequisites as answers, updates as authorities. */
function update(zone: string, prerequisites: RR[], updates: RR[], id = 7): Buffer {
  const rr = (r: RR) => ({ ttl: 0, class: 'IN', ...r }) as packet.Answer;
  return Buffer.from(
    packet.encode({
      id,
      type: 'query',
      opcode: 'UPDATE',
      flags: 5 << 11,
      questions: [{ name: zone, type: 'SOA', class: 'IN' }],
      answers: prerequisites.map(rr),
      authorities: updates.map(rr),
    } as unknown as packet.Packet),
  );
}

/** One RR of class ANY or NONE (which dns-packet cannot write) as the only prerequisite or update. */
function bare(zone: string, section: 'prereq' | 'update', name: string, type: number, cls: number, rdata = Buffer.alloc(0)): Buffer {
  const owner = Buffer.concat([...name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(cls, 2);
  fixed.writeUInt16BE(rdata.length, 8);
  const msg = Buffer.concat([update(zone, [], []), owner, fixed, rdata]);
  msg.writeUInt16BE(1, section === 'prereq' ? 6 : 8);
  return msg;
}

describe('parseUpdate', () => {
  it('reads the zone, the prerequisites and the updates, names relative and rdata canonical', () => {
    const msg = update(
      'Example.COM',
      [{ name: 'www.example.com', type: 'A', data: '192.0.2.1' }],
      [
        { name: '_acme-challenge.www.example.com', type: 'TXT', ttl: 120, data: ['part one ', 'and two'] },
        { name: 'example.com', type: 'MX', ttl: 300, data: { preference: 10, exchange: 'MX.Example.NET' } },
        { name: 'v6.example.com', type: 'AAAA', ttl: 300, data: '2001:DB8:0:0::1' },
        { name: 'bin.example.com', type: 'TXT', ttl: 60, data: [Buffer.from([0x00, 0xff])] },
      ],
    );
    expect(parseUpdate(msg)).toEqual({
      kind: 'update',
      zone: 'example.com',
      zoneEnd: 12 + 13 + 4,
      prerequisites: [{ name: 'www', type: 'A', cls: 'zone', ttl: 0, content: '192.0.2.1' }],
      updates: [
        { name: '_acme-challenge.www', type: 'TXT', cls: 'zone', ttl: 120, content: '"part one " "and two"' },
        { name: '@', type: 'MX', cls: 'zone', ttl: 300, content: '10 mx.example.net' },
        { name: 'v6', type: 'AAAA', cls: 'zone', ttl: 300, content: '2001:db8::1' },
        // Octets that are not text are kept, in the registry's \DDD form.
        { name: 'bin', type: 'TXT', cls: 'zone', ttl: 60, content: '\\000\\255' },
      ],
    });
    expect(parseUpdate(bare('example.com', 'prereq', 'www.example.com', 255, 254))).toMatchObject({ prerequisites: [{ name: 'www', type: 'ANY', cls: 'none', content: null }] });
    expect(parseUpdate(bare('example.com', 'update', 'www.example.com', 1, 255))).toMatchObject({ updates: [{ name: 'www', type: 'A', cls: 'any', content: null }] });
    expect(parseUpdate(bare('example.com', 'update', 'old.example.com', 1, 254, Buffer.from([192, 0, 2, 9])))).toMatchObject({
      updates: [{ name: 'old', type: 'A', cls: 'none', ttl: 0, content: '192.0.2.9' }],
    });
    // RDATA that does not fill RDLENGTH exactly is a format error.
    expect(parseUpdate(bare('example.com', 'update', 'old.example.com', 1, 254, Buffer.from([192, 0, 2])))).toMatchObject({ kind: 'error', rcode: 1 });
  });

  it.each([
    ['a name outside the zone', update('example.com', [], [{ name: 'www.example.org', type: 'A', ttl: 60, data: '192.0.2.1' }]), 10],
    ['a prerequisite outside the zone', update('example.com', [{ name: 'example.net', type: 'A', data: '192.0.2.1' }], []), 10],
    ['a prerequisite with a TTL', update('example.com', [{ name: 'www.example.com', type: 'A', ttl: 5, data: '192.0.2.1' }], []), 1],
    ['an add of a meta type', bare('example.com', 'update', 'www.example.com', 252, 1), 1],
    [
      'a zone section that is not SOA',
      Buffer.from(packet.encode({ id: 1, type: 'query', opcode: 'UPDATE', flags: 5 << 11, questions: [{ name: 'example.com', type: 'A', class: 'IN' }] } as unknown as packet.Packet)),
      1,
    ],
    ['an AAAA record of five octets', bare('example.com', 'update', 'x.example.com', 28, 1, Buffer.from([1, 2, 3, 4, 5])), 1],
  ])('answers %s with its RCODE', (_, msg, rcode) => {
    expect(parseUpdate(msg)).toMatchObject({ kind: 'error', rcode });
  });

  it('never throws on random or mutated messages', () => {
    const valid = update('example.com', [{ name: 'www.example.com', type: 'A', data: '192.0.2.1' }], [{ name: 'a.example.com', type: 'TXT', ttl: 60, data: ['x'] }]);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), (random, flips) => {
        const mutated = Buffer.from(valid);
        for (const [at, v] of flips) mutated[at] = v;
        for (const m of [Buffer.from(random), mutated]) {
          const p = parseUpdate(m);
          expect(['update', 'error']).toContain(p.kind);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('UPDATE in the handler', () => {
  const NOW = 1_800_000_000;
  const key: DnsKey = { name: 'up.key', algorithm: 'hmac-sha256', secret: Buffer.alloc(32, 3), userId: 1, scope: {} };

  function setup(rcode = 0) {
    const seen: UpdateRequest[] = [];
    const handler = createHandler(exampleIndex(), {
      transferAllowed: () => false,
      keys: new Map([[key.name, key]]),
      clock: () => NOW,
      update: async (req) => {
        seen.push(req);
        return rcode;
      },
    });
    return { handler, seen };
  }
  const udp = (handler: ReturnType<typeof setup>['handler'], msg: Buffer) =>
    new Promise<Buffer | null>((resolve) => {
      const now = handler.udp(msg, '192.0.2.53', resolve);
      if (now) resolve(now);
    });
  const rcodeOf = (m: Buffer) => m[3]! & 0x0f;
  const msg = update('example.com', [], [{ name: 'a.example.com', type: 'TXT', ttl: 60, data: ['x'] }]);

  it('refuses an unsigned update without asking the services', async () => {
    const { handler, seen } = setup();
    const out = (await udp(handler, msg))!;
    expect(rcodeOf(out)).toBe(5);
    expect((out[2]! >> 3) & 0x0f).toBe(5);
    expect(seen).toEqual([]);
  });

  it('hands a signed update to the services and answers their RCODE signed, over UDP and TCP', async () => {
    const { handler, seen } = setup(8);
    const signed = signRequest(msg, key, () => NOW);
    const out = (await udp(handler, signed.message))!;
    expect(rcodeOf(out)).toBe(8);
    expect(verifyAnswer([out], key, signed.mac, () => NOW)).toBe(0);
    expect(seen).toEqual([{ zone: 'example.com', prerequisites: [], updates: [{ name: 'a', type: 'TXT', cls: 'zone', ttl: 60, content: 'x' }], key: 'up.key', address: '192.0.2.53' }]);
    // The same signed message again is a replay: refused, BADTIME. A new one goes over TCP.
    const again = (await udp(handler, signed.message))!;
    expect(rcodeOf(again)).toBe(9);
    const second = Buffer.from(msg);
    second.writeUInt16BE(99, 0);
    const signed2 = signRequest(second, key, () => NOW);
    const tcp = await handler.tcp(signed2.message, '192.0.2.53');
    expect(rcodeOf(tcp[0]!)).toBe(8);
    expect(verifyAnswer(tcp, key, signed2.mac, () => NOW)).toBe(0);
  });

  it('answers every signed mutation of an update without throwing, asking the services only for well-formed ones', async () => {
    const { handler, seen } = setup();
    const valid = update('example.com', [{ name: 'www.example.com', type: 'A', data: '192.0.2.1' }], [{ name: 'a.example.com', type: 'TXT', ttl: 60, data: ['x'] }]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 12, max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), async (flips) => {
        const mutated = Buffer.from(valid);
        for (const [at, v] of flips) mutated[at] = v;
        // Signed after the change, so the mutation reaches the parser behind a valid MAC.
        const out = await udp(handler, signRequest(mutated, key, () => NOW).message);
        expect(out).not.toBeNull();
        expect([0, 1, 5, 9, 10]).toContain(rcodeOf(out!));
      }),
      { numRuns: 300 },
    );
    for (const req of seen) expect(req.zone).toMatch(/^[^\s]*$/);
  });

  it('answers format errors and bad signatures itself', async () => {
    const { handler, seen } = setup();
    const outside = signRequest(update('example.com', [], [{ name: 'x.example.org', type: 'A', ttl: 60, data: '192.0.2.1' }]), key, () => NOW);
    const out = (await udp(handler, outside.message))!;
    expect(rcodeOf(out)).toBe(10);
    expect(verifyAnswer([out], key, outside.mac, () => NOW)).toBe(0);
    const bad = signRequest(msg, { ...key, secret: Buffer.alloc(32, 4) }, () => NOW);
    expect(rcodeOf((await udp(handler, bad.message))!)).toBe(9);
    expect(seen).toEqual([]);
  });
});
