/**
 * TSIG (RFC 8945) against a MAC derived by hand from the RFC's definition, and against the
 * real implementations: requests signed by BIND's dig and Knot's kdig verify here, and our
 * signed answers (one message, and a three-message transfer chained per §5.3.1) verify there.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { promisify } from 'node:util';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTsig, signAnswer, signError, signRequest, TSIG_ALGORITHMS, TSIG_ERROR, verifyAnswer, verifyRequest, type TsigAlgorithm, type TsigKey, type TsigRecord } from './tsig';

const run = promisify(execFile);
/** How dig ("Couldn't verify signature", "Some TSIG could not be validated") and kdig ("failed to verify TSIG") report a bad MAC. */
const TSIG_FAILURE = /couldn't verify|could not be validated|failed to verify|verification/i;
const SECRET = Buffer.from('zonedeck-tsig-test-secret-32-oct', 'latin1');
const keyOf = (algorithm: TsigAlgorithm, name = 'test-key'): TsigKey => ({ name, algorithm, secret: SECRET });

/** The header and question of `example.com. IN SOA`, ID 0x1234, RD. */
const QUERY = Buffer.from('123401000001000000000000' + '076578616d706c6503636f6d00' + '00060001', 'hex');
const T0 = 1_700_000_000;

function record(msg: Buffer): TsigRecord {
  const r = findTsig(msg);
  if (!r || r === 'malformed') throw new Error('no TSIG record');
  return r;
}

describe('the MAC of a request, derived by hand (RFC 8945 §4.3)', () => {
  // Everything the MAC covers, spelled out octet by octet rather than built by the code under test.
  const variables = Buffer.from(
    '08746573742d6b657900' + // key name test-key., uncompressed
      '00ff' + // class ANY
      '00000000' + // TTL 0
      '0b686d61632d73686132353600' + // algorithm hmac-sha256.
      '00006553f100' + // time signed 1700000000, 48 bits
      '012c' + // fudge 300
      '0000' + // error
      '0000', // other len
    'hex',
  );
  const expected = createHmac('sha256', SECRET).update(QUERY).update(variables).digest();

  it('signs a request with exactly that MAC, in a TSIG RR laid out as §4.2 says', () => {
    const { message, mac } = signRequest(QUERY, keyOf('hmac-sha256'), () => T0);
    expect(mac.toString('hex')).toBe(expected.toString('hex'));
    expect(message.readUInt16BE(10)).toBe(1);
    const rr = message.subarray(QUERY.length).toString('hex');
    expect(rr).toBe(
      '08746573742d6b657900' + '00fa' + '00ff' + '00000000' + '003d' + '0b686d61632d73686132353600' + '00006553f100' + '012c' + '0020' + expected.toString('hex') + '1234' + '0000' + '0000',
    );
  });

  it('verifies it, and names what is wrong with a bad one', () => {
    const key = keyOf('hmac-sha256');
    const lookup = (n: string) => (n === key.name ? key : undefined);
    const { message } = signRequest(QUERY, key, () => T0);
    expect(verifyRequest(message, record(message), lookup, () => T0 + 300)).toMatchObject({ ok: true, key });
    expect(verifyRequest(message, record(message), lookup, () => T0 + 301)).toMatchObject({ ok: false, rcode: 9, error: TSIG_ERROR.BADTIME, key });
    expect(
      verifyRequest(
        message,
        record(message),
        () => undefined,
        () => T0,
      ),
    ).toMatchObject({ ok: false, rcode: 9, error: TSIG_ERROR.BADKEY });
    expect(
      verifyRequest(
        message,
        record(message),
        () => keyOf('hmac-sha512'),
        () => T0,
      ),
    ).toMatchObject({ ok: false, error: TSIG_ERROR.BADKEY });
    const tampered = Buffer.from(message);
    tampered[13] ^= 0x20; // the question's case: covered by the MAC
    expect(verifyRequest(tampered, record(tampered), lookup, () => T0)).toMatchObject({ ok: false, rcode: 9, error: TSIG_ERROR.BADSIG });
    // The original ID is what was signed: a forwarder may change the header's.
    const forwarded = Buffer.from(message);
    forwarded.writeUInt16BE(0x9999, 0);
    expect(verifyRequest(forwarded, record(forwarded), lookup, () => T0)).toMatchObject({ ok: true });
  });

  it('applies the truncation rules of §5.2.2.1', () => {
    const key = keyOf('hmac-sha256');
    const { message } = signRequest(QUERY, key, () => T0);
    /** The same request with its MAC cut to `n` octets (MAC size and RDLENGTH adjusted). */
    const truncated = (n: number, mac = record(message).mac.subarray(0, n)) => {
      const rec = record(message);
      const rr = Buffer.from(message.subarray(rec.start));
      const macAt = 10 + 10 + 13 + 10; // owner, fixed RR fields, algorithm, time+fudge+size
      const out = Buffer.concat([message.subarray(0, rec.start), rr.subarray(0, macAt), mac, rr.subarray(macAt + 32)]);
      out.writeUInt16BE(mac.length, rec.start + macAt - 2);
      out.writeUInt16BE(out.length - rec.start - 20, rec.start + 18);
      return out;
    };
    const verify = (m: Buffer) =>
      verifyRequest(
        m,
        record(m),
        () => key,
        () => T0,
      );
    expect(verify(truncated(16))).toMatchObject({ ok: true });
    expect(verify(truncated(20))).toMatchObject({ ok: true });
    expect(verify(truncated(15))).toMatchObject({ ok: false, rcode: 1 });
    expect(verify(truncated(33, Buffer.concat([expected, Buffer.from([0])])))).toMatchObject({ ok: false, rcode: 1 });
    // A truncated request gets answers with MACs of the same length.
    const m16 = truncated(16);
    const [answer] = signAnswer([Buffer.from(QUERY)], key, record(m16), () => T0);
    expect(record(answer!).mac).toHaveLength(16);
  });

  it('finds no TSIG in a plain query, and calls a misplaced one malformed', () => {
    expect(findTsig(QUERY)).toBeNull();
    const { message } = signRequest(QUERY, keyOf('hmac-sha256'), () => T0);
    // A record after the TSIG: the TSIG is no longer last (§5.1).
    const opt = Buffer.from('0000290200000000000000', 'hex');
    const after = Buffer.concat([message, opt]);
    after.writeUInt16BE(2, 10);
    expect(findTsig(after)).toBe('malformed');
    expect(findTsig(message.subarray(0, message.length - 3))).toBe('malformed');
  });
});

/** A responder for one dig or kdig run: verifies what it gets, answers signed (or with `corrupt` answers). */
class Responder {
  udp!: dgram.Socket;
  tcp!: net.Server;
  port = 0;
  keys = new Map<string, TsigKey>();
  seen: Array<ReturnType<typeof verifyRequest>> = [];
  corrupt = false;
  /** The responder's clock, seconds since 1970: skew it for BADTIME. */
  clock = () => Math.floor(Date.now() / 1000);

  async start(): Promise<void> {
    this.tcp = net.createServer((sock) => {
      let buf = Buffer.alloc(0);
      sock.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        while (buf.length >= 2 && buf.length >= buf.readUInt16BE(0) + 2) {
          const msg = buf.subarray(2, 2 + buf.readUInt16BE(0));
          buf = buf.subarray(2 + msg.length);
          for (const out of this.answer(msg)) sock.write(Buffer.concat([Buffer.from([out.length >> 8, out.length & 255]), out]));
        }
      });
      sock.on('error', () => {});
    });
    await new Promise<void>((r) => this.tcp.listen(0, '127.0.0.1', () => r()));
    this.port = (this.tcp.address() as net.AddressInfo).port;
    this.udp = dgram.createSocket('udp4');
    this.udp.on('message', (msg, rinfo) => {
      for (const out of this.answer(msg)) this.udp.send(out, rinfo.port, rinfo.address);
    });
    await new Promise<void>((r) => this.udp.bind(this.port, '127.0.0.1', () => r()));
  }

  answer(msg: Buffer): Buffer[] {
    const rec = findTsig(msg);
    if (!rec || rec === 'malformed') return [];
    const v = verifyRequest(msg, rec, (n) => this.keys.get(n), this.clock);
    this.seen.push(v);
    const q = packet.decode(msg);
    const question = q.questions![0]!;
    const base = { id: q.id, type: 'response' as const, flags: packet.AUTHORITATIVE_ANSWER, questions: [question] };
    if (!v.ok) {
      const err = Buffer.from(packet.encode({ ...base, flags: 9 }));
      return [signError(err, v, this.clock)];
    }
    const soa = {
      name: 'example.com',
      type: 'SOA' as const,
      ttl: 3600,
      data: { mname: 'ns1.example.com', rname: 'hostmaster.example.com', serial: 7, refresh: 3600, retry: 600, expire: 86400, minimum: 300 },
    };
    const messages =
      question.type === 'AXFR'
        ? [
            packet.encode({ ...base, answers: [soa] }),
            packet.encode({ id: q.id, type: 'response', flags: packet.AUTHORITATIVE_ANSWER, answers: [{ name: 'www.example.com', type: 'A', ttl: 300, data: '192.0.2.1' }] }),
            packet.encode({ id: q.id, type: 'response', flags: packet.AUTHORITATIVE_ANSWER, answers: [soa] }),
          ]
        : [packet.encode({ ...base, answers: [soa] })];
    const signed = signAnswer(
      messages.map((m) => Buffer.from(m)),
      v.key,
      v.record,
    );
    if (this.corrupt) for (const m of signed) m[m.length - 10] ^= 1;
    return signed;
  }

  close(): void {
    this.udp.close();
    this.tcp.close();
  }
}

const ALGORITHMS = Object.keys(TSIG_ALGORITHMS) as TsigAlgorithm[];
let responder: Responder;
beforeAll(async () => {
  responder = new Responder();
  await responder.start();
});
afterAll(() => responder.close());

/** dig or kdig against the responder; stdout and stderr together (their verdicts go to either). */
async function client(tool: 'dig' | 'kdig', key: string, ...args: string[]): Promise<string> {
  const patience = tool === 'dig' ? ['+time=2', '+tries=1'] : ['+timeout=2', '+retry=0'];
  const out = await run(tool, ['@127.0.0.1', '-p', String(responder.port), '-y', key, ...patience, ...args]).catch((e: { stdout?: string; stderr?: string }) => e);
  return `${out.stdout ?? ''}${out.stderr ?? ''}`;
}

describe.each(['dig', 'kdig'] as const)('with %s', (tool) => {
  it.each(ALGORITHMS)('%s: its signed query verifies here, and our signed answer verifies there', async (algorithm) => {
    const key = keyOf(algorithm, `${algorithm}.${tool}.key`);
    responder.keys.set(key.name, key);
    responder.seen = [];
    const out = await client(tool, `${algorithm}:${key.name}:${SECRET.toString('base64')}`, 'example.com', 'SOA');
    expect(responder.seen).toMatchObject([{ ok: true }]);
    expect(out).toMatch(/status: NOERROR/);
    expect(out).toMatch(/ns1\.example\.com\. hostmaster\.example\.com\. 7 /);
    expect(out).not.toMatch(TSIG_FAILURE);
    expect(out).not.toMatch(/BADSIG|BADKEY|BADTIME/);
  });

  it.each(ALGORITHMS)('%s: a three-message transfer signed message by message verifies there', async (algorithm) => {
    const key = keyOf(algorithm, `axfr.${algorithm}.${tool}.key`);
    responder.keys.set(key.name, key);
    const out = await client(tool, `${algorithm}:${key.name}:${SECRET.toString('base64')}`, '+tcp', 'example.com', 'AXFR');
    expect(out).toMatch(/www\.example\.com\.\s+300\s+IN\s+A\s+192\.0\.2\.1/);
    expect(out).not.toMatch(TSIG_FAILURE);
    expect(out).not.toMatch(/failed|BADSIG/i);
  });

  it('notices a bad MAC in our answer (so the checks above can fail)', async () => {
    const key = keyOf('hmac-sha256', `corrupt.${tool}.key`);
    responder.keys.set(key.name, key);
    responder.corrupt = true;
    try {
      const one = await client(tool, `hmac-sha256:${key.name}:${SECRET.toString('base64')}`, 'example.com', 'SOA');
      expect(one).toMatch(TSIG_FAILURE);
      const xfr = await client(tool, `hmac-sha256:${key.name}:${SECRET.toString('base64')}`, '+tcp', 'example.com', 'AXFR');
      expect(xfr).toMatch(TSIG_FAILURE);
    } finally {
      responder.corrupt = false;
    }
  });

  it('gets BADKEY for an unknown key and BADSIG for a wrong secret, unsigned, with NOTAUTH', async () => {
    const unknown = await client(tool, `hmac-sha256:nobody.key:${SECRET.toString('base64')}`, 'example.com', 'SOA');
    // dig shows the RCODE (NOTAUTH) and the TSIG error apart; kdig shows the TSIG error as the status.
    expect(unknown).toMatch(/status: (NOTAUTH|BADKEY)/);
    expect(unknown).toMatch(/TSIG\s+hmac-sha256\. \d+ 300 0 \d+ BADKEY/);
    const key = keyOf('hmac-sha256', `wrong.${tool}.key`);
    responder.keys.set(key.name, key);
    const wrong = await client(tool, `hmac-sha256:${key.name}:${Buffer.alloc(32, 7).toString('base64')}`, 'example.com', 'SOA');
    expect(wrong).toMatch(/status: (NOTAUTH|BADSIG)/);
    expect(wrong).toMatch(/TSIG\s+hmac-sha256\. \d+ 300 0 \d+ BADSIG/);
  });
});

it('dig accepts answers to a truncated MAC (hmac-sha256-128)', async () => {
  const key = keyOf('hmac-sha256', 'truncated.key');
  responder.keys.set(key.name, key);
  responder.seen = [];
  const out = await client('dig', `hmac-sha256-128:${key.name}:${SECRET.toString('base64')}`, 'example.com', 'SOA');
  expect(responder.seen).toMatchObject([{ ok: true, record: { mac: expect.any(Buffer) } }]);
  expect((responder.seen[0] as { record: TsigRecord }).record.mac).toHaveLength(16);
  expect(out).toMatch(/status: NOERROR/);
  expect(out).not.toMatch(TSIG_FAILURE);
  expect(out).not.toMatch(/BADSIG|BADTRUNC/);
});

describe.each(['dig', 'kdig'] as const)('BADTIME with %s', (tool) => {
  it('answers a request outside the fudge with BADTIME, signed, with our time in Other Data', async () => {
    const key = keyOf('hmac-sha256', `late.${tool}.key`);
    responder.keys.set(key.name, key);
    const real = responder.clock;
    const ours = Math.floor(Date.now() / 1000) + 3600;
    responder.clock = () => ours;
    try {
      const out = await client(tool, `hmac-sha256:${key.name}:${SECRET.toString('base64')}`, 'example.com', 'SOA');
      expect(out).toMatch(/status: (NOTAUTH|BADTIME)/);
      // Signed (a 32-octet MAC), with six octets of other data: the server's time.
      expect(out).toMatch(/TSIG\s+hmac-sha256\. \d+ 300 32 \S+ \d+ BADTIME 6 /);
      // Both verify our MAC and then report the skew, not a bad signature.
      expect(out).toMatch(tool === 'dig' ? /clocks are unsynchronized/ : /TSIG out of time window/);
      expect(out).not.toMatch(/tsig verify failure|failed to verify/);
    } finally {
      responder.clock = real;
    }
  });
});

describe('verifyAnswer', () => {
  const key = keyOf('hmac-sha384', 'chain.key');
  const { message: request, mac } = signRequest(QUERY, key, () => T0);
  const parts = [0, 1, 2].map((i) => Buffer.from(packet.encode({ id: 0x1234, type: 'response', answers: [{ name: `n${i}.example.com`, type: 'A', ttl: 1, data: '192.0.2.1' }] })));

  it('accepts a chain we signed, and refuses one changed, reordered, or signed for another request', () => {
    const signed = signAnswer(parts, key, record(request), () => T0);
    expect(verifyAnswer(signed, key, mac, () => T0)).toBe(0);
    expect(verifyAnswer([signed[1]!, signed[0]!, signed[2]!], key, mac, () => T0)).toBe(TSIG_ERROR.BADSIG);
    const changed = signed.map((m) => Buffer.from(m));
    changed[2]![20] ^= 1;
    expect(verifyAnswer(changed, key, mac, () => T0)).toBe(TSIG_ERROR.BADSIG);
    expect(verifyAnswer(signed, key, Buffer.alloc(48), () => T0)).toBe(TSIG_ERROR.BADSIG);
    expect(verifyAnswer(signed, key, mac, () => T0 + 1000)).toBe(TSIG_ERROR.BADTIME);
  });

  it('lets unsigned messages sit between signed ones (§5.3.1), never last', () => {
    // Messages 0 and 2 signed; message 1 unsigned, so the MAC of message 2 covers it whole.
    const [m0, m2] = signAnswer([parts[0]!, parts[2]!], key, record(request), () => T0);
    const mac0 = record(m0!).mac;
    const timers = Buffer.from('00006553f100012c', 'hex');
    const mac2 = createHmac('sha384', SECRET)
      .update(Buffer.from([0, 48]))
      .update(mac0)
      .update(parts[1]!)
      .update(parts[2]!)
      .update(timers)
      .digest();
    const fixed = Buffer.from(m2!);
    mac2.copy(fixed, fixed.length - 6 - 48);
    expect(verifyAnswer([m0!, parts[1]!, fixed], key, mac, () => T0)).toBe(0);
    expect(verifyAnswer([m0!, parts[1]!, m2!], key, mac, () => T0)).toBe(TSIG_ERROR.BADSIG);
    expect(verifyAnswer([m0!, parts[1]!], key, mac, () => T0)).toBe(TSIG_ERROR.BADSIG);
    expect(verifyAnswer([parts[0]!], key, mac, () => T0)).toBe(TSIG_ERROR.BADSIG);
  });
});
