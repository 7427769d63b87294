/**
 * The query handler without sockets: bytes in, bytes out, decoded with dns-packet as a client
 * would: header flags, EDNS, truncation, error RCODEs, the cache and zone transfers.
 */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { createHandler } from './handler';
import { exampleIndex } from '../../testing/zone-fixture';

/** The TCP answers of a query that needs no store (everything but IXFR). */
function syncTcp(h: { tcp(m: Buffer, a: string): Buffer[] | Promise<Buffer[]> }, msg: Buffer, address: string): Buffer[] {
  const out = h.tcp(msg, address);
  if (!Array.isArray(out)) throw new Error('expected a synchronous answer');
  return out;
}

type Q = { name: string; type?: string; id?: number; flags?: number; edns?: number | false; do?: boolean };

function query(q: Q): Buffer {
  return packet.encode({
    id: q.id ?? 4242,
    type: 'query',
    flags: q.flags ?? packet.RECURSION_DESIRED,
    questions: [{ name: q.name, type: (q.type ?? 'A') as 'A', class: 'IN' }],
    additionals: q.edns === false ? [] : [{ type: 'OPT', name: '.', udpPayloadSize: q.edns ?? 1232, flags: q.do ? packet.DNSSEC_OK : 0, options: [] } as unknown as packet.Answer],
  });
}

function setup() {
  const index = exampleIndex();
  const handler = createHandler(index, { transferAllowed: (a) => a === '127.0.0.1' });
  const udp = (msg: Buffer) => {
    const out = handler.udp(msg, '127.0.0.1');
    return out ? packet.decode(out) : null;
  };
  return { index, handler, udp };
}

const rcodeOf = (p: packet.DecodedPacket | null) => (p as { rcode?: string } | null)?.rcode;

describe('handler', () => {
  it('echoes the ID, RD and the question exactly as asked, with AA on answers', () => {
    const { udp } = setup();
    const r = udp(query({ name: 'WwW.eXaMpLe.CoM', id: 777 }))!;
    expect(r.id).toBe(777);
    expect(r.flags! & packet.RECURSION_DESIRED).toBeTruthy();
    expect(r.flags! & packet.AUTHORITATIVE_ANSWER).toBeTruthy();
    expect(r.questions![0]!.name).toBe('WwW.eXaMpLe.CoM');
    expect(r.answers!.map((a) => (a as { data: unknown }).data)).toEqual(['192.0.2.1', '192.0.2.2']);
  });

  it('serves a repeated question from the cache with the new ID and case', () => {
    const { udp, handler } = setup();
    udp(query({ name: 'www.example.com', id: 1 }));
    expect(handler.cache.size).toBe(1);
    const r = udp(query({ name: 'WWW.EXAMPLE.COM', id: 2, flags: 0 }))!;
    expect(r.id).toBe(2);
    expect(r.flags! & packet.RECURSION_DESIRED).toBe(0);
    expect(r.questions![0]!.name).toBe('WWW.EXAMPLE.COM');
    expect(r.answers![0]!.name).toBe('WWW.EXAMPLE.COM');
  });

  it('stops serving a cached answer as soon as its zone changes', () => {
    const { udp, index } = setup();
    expect(udp(query({ name: 'www.example.com' }))!.answers).toHaveLength(2);
    index.get('example.com')!.replaceName('www', []);
    expect(rcodeOf(udp(query({ name: 'www.example.com' })))).toBe('NXDOMAIN');
  });

  it('advertises a 1232-octet EDNS payload and answers without OPT when asked without', () => {
    const { udp } = setup();
    const withEdns = udp(query({ name: 'www.example.com' }))!;
    const opt = withEdns.additionals!.find((a) => a.type === 'OPT') as { udpPayloadSize: number };
    expect(opt.udpPayloadSize).toBe(1232);
    expect(udp(query({ name: 'www.example.com', edns: false }))!.additionals).toHaveLength(0);
  });

  it('sets TC when the answer does not fit 512 octets, and answers in full over TCP', () => {
    const { udp, handler } = setup();
    const small = udp(query({ name: 'big.example.com', type: 'TXT', edns: false }))!;
    expect(small.flags! & packet.TRUNCATED_RESPONSE).toBeTruthy();
    expect(small.answers).toHaveLength(0);
    const full = packet.decode(syncTcp(handler, query({ name: 'big.example.com', type: 'TXT', edns: false }), '192.0.2.1')[0]!);
    expect(full.flags! & packet.TRUNCATED_RESPONSE).toBe(0);
    expect(full.answers).toHaveLength(2);
    // 2 kB of TXT fits the 4096 a client may ask for only up to our 1232 limit.
    expect(udp(query({ name: 'big.example.com', type: 'TXT', edns: 4096 }))!.flags! & packet.TRUNCATED_RESPONSE).toBeTruthy();
  });

  it('answers BADVERS to an unknown EDNS version', () => {
    const { handler } = setup();
    const msg = query({ name: 'www.example.com' });
    msg[msg.length - 5] = 1; // OPT version
    const out = handler.udp(msg, '127.0.0.1')!;
    const r = packet.decode(out);
    const opt = r.additionals!.find((a) => a.type === 'OPT') as { extendedRcode: number };
    expect(opt.extendedRcode).toBe(1); // BADVERS = 16 = 1 << 4
  });

  it('answers FORMERR to broken questions, NOTIMP to unsupported opcodes and REFUSED to an unsigned UPDATE', () => {
    const { udp, handler } = setup();
    const truncated = query({ name: 'www.example.com', edns: false }).subarray(0, 20);
    expect(rcodeOf(udp(truncated))).toBe('FORMERR');
    const two = packet.encode({
      id: 1,
      type: 'query',
      questions: [
        { name: 'a.example.com', type: 'A' },
        { name: 'b.example.com', type: 'A' },
      ],
    });
    expect(rcodeOf(udp(two))).toBe('FORMERR');
    const iquery = query({ name: 'example.com', type: 'SOA', edns: false });
    iquery[2] = (1 << 3) | (iquery[2]! & 0x87);
    expect(rcodeOf(udp(iquery))).toBe('NOTIMP');
    // An UPDATE must be signed: unsigned, it is refused.
    const update = query({ name: 'example.com', type: 'SOA', edns: false });
    update[2] = (5 << 3) | (update[2]! & 0x87);
    expect(rcodeOf(udp(update))).toBe('REFUSED');
    // Responses and runts get no reply at all.
    expect(handler.udp(Buffer.from([1, 2, 3]), '127.0.0.1')).toBeNull();
    const response = query({ name: 'www.example.com' });
    response[2]! |= 0x80;
    expect(handler.udp(response, '127.0.0.1')).toBeNull();
  });

  it('refuses other classes and zone transfers over UDP', () => {
    const { handler, udp } = setup();
    const chaos = packet.encode({ id: 1, type: 'query', questions: [{ name: 'version.bind', type: 'TXT', class: 'CH' }] });
    expect(rcodeOf(udp(chaos))).toBe('REFUSED');
    expect(rcodeOf(udp(query({ name: 'example.com', type: 'AXFR' })))).toBe('NOTIMP');
    expect(handler.udp(query({ name: 'example.com', type: 'AXFR' }), '127.0.0.1')).not.toBeNull();
  });

  it('transfers a zone over TCP to allowed addresses only, SOA first and last', () => {
    const { handler } = setup();
    const denied = packet.decode(syncTcp(handler, query({ name: 'example.com', type: 'AXFR', edns: false }), '192.0.2.9')[0]!);
    expect(rcodeOf(denied)).toBe('REFUSED');
    const msgs = syncTcp(handler, query({ name: 'example.com', type: 'AXFR', edns: false }), '127.0.0.1').map((m) => packet.decode(m));
    const records = msgs.flatMap((m) => m.answers!);
    expect(records[0]!.type).toBe('SOA');
    expect(records.at(-1)!.type).toBe('SOA');
    expect(records.filter((r) => r.type === 'SOA')).toHaveLength(2);
    // Glue below the cut is part of the zone (RFC 5936 §3.1).
    expect(records.some((r) => r.name === 'ns1.sub.example.com' && r.type === 'A')).toBe(true);
    expect(msgs.every((m) => m.flags! & packet.AUTHORITATIVE_ANSWER)).toBe(true);
    const notApex = packet.decode(syncTcp(handler, query({ name: 'www.example.com', type: 'AXFR', edns: false }), '127.0.0.1')[0]!);
    expect(rcodeOf(notApex)).toBe('NOTAUTH');
  });

  it('splits a large zone transfer into several messages', () => {
    const { handler, index } = setup();
    const zone = index.get('example.com')!;
    for (let i = 0; i < 3000; i++) zone.replaceName(`host${i}`, [{ id: 10_000 + i, name: `host${i}`, record_type: 'TXT', content: `record number ${i} `.repeat(3), ttl: 60 }]);
    const msgs = syncTcp(handler, query({ name: 'example.com', type: 'AXFR', edns: false }), '127.0.0.1');
    expect(msgs.length).toBeGreaterThan(1);
    const records = msgs.flatMap((m) => packet.decode(m).answers!);
    expect(records.filter((r) => r.name.startsWith('host'))).toHaveLength(3000);
  });

  it('compresses names so a referral stays small', () => {
    const { handler } = setup();
    const out = handler.udp(query({ name: 'x.sub.example.com', edns: false }), '127.0.0.1')!;
    expect(out.length).toBeLessThan(110);
    expect(rcodeOf(packet.decode(out))).toBe('NOERROR');
  });

  it('answers IXFR over UDP with the SOA alone (RFC 1995 §2)', () => {
    const { udp } = setup();
    const r = udp(query({ name: 'example.com', type: 'IXFR' }))!;
    expect(r.answers!.map((a) => a.type)).toEqual(['SOA']);
  });

  it('never throws, whatever the bytes', () => {
    const { handler } = setup();
    const seed = query({ name: 'www.example.com' });
    for (let i = 0; i < 20_000; i++) {
      const msg = Buffer.from(seed);
      for (let k = 0; k < 1 + (i % 6); k++) msg[(i * 7919 + k * 104729) % msg.length] = (i * 31 + k * 17) & 0xff;
      expect(() => handler.udp(msg.subarray(0, 1 + (i % msg.length)), '127.0.0.1')).not.toThrow();
      expect(() => handler.tcp(msg, '127.0.0.1')).not.toThrow();
    }
  });
});
