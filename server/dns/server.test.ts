/**
 * The running server, asked with the real `dig` over UDP and TCP: what a user of the API
 * sees in DNS. One process for the file, with two UDP threads (DNS_THREADS=2, as on a two-core
 * machine by default), killed by pid at the end.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../testing/test-server';

let s: RunningServer;
let idle: net.Socket;
let idleClosed: Promise<void>;

const status = (out: string) => /status: (\w+)/.exec(out)?.[1];
const flags = (out: string) => /;; flags: ([a-z ]*);/.exec(out)?.[1]?.split(' ') ?? [];
const section = (out: string, name: string) => {
  const m = new RegExp(`;; ${name} SECTION:\\n([\\s\\S]*?)(\\n\\n|$)`).exec(out);
  return m ? m[1]!.split('\n').map((l) => l.split(/\s+/).join(' ')) : [];
};
const short = async (...args: string[]) => (await s.dig('+short', ...args)).trim().split('\n').filter(Boolean);

async function add(name: string, record_type: string, content: string, ttl = '300') {
  const res = await s.api('POST', '/domains/example.com/records', { name, record_type, content, ttl });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: number };
}

/** Sends `messages` pipelined on one TCP connection; `pauseMs` leaves the answers unread a while. */
function tcpExchange(messages: Buffer[], expected: number, pauseMs = 0): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(s.dns, '127.0.0.1');
    const out: Buffer[] = [];
    let buf = Buffer.alloc(0);
    sock.on('connect', () => {
      sock.write(Buffer.concat(messages.map((m) => Buffer.concat([Buffer.from([m.length >> 8, m.length & 255]), m]))));
      if (pauseMs > 0) {
        sock.pause();
        setTimeout(() => sock.resume(), pauseMs);
      }
    });
    sock.on('data', (d) => {
      buf = buf.length ? Buffer.concat([buf, d]) : d;
      let at = 0;
      while (buf.length - at >= 2 && buf.length - at >= buf.readUInt16BE(at) + 2) {
        out.push(buf.subarray(at + 2, at + 2 + buf.readUInt16BE(at)));
        at += buf.readUInt16BE(at) + 2;
      }
      buf = buf.subarray(at);
      if (out.length === expected) {
        sock.end();
        resolve(out);
      }
    });
    sock.on('error', reject);
  });
}

function udpExchange(msg: Buffer): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const sock = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      sock.close();
      resolve(null);
    }, 1500);
    sock.on('message', (m) => {
      clearTimeout(timer);
      sock.close();
      resolve(m);
    });
    sock.send(msg, s.dns, '127.0.0.1');
  });
}

beforeAll(async () => {
  s = await startServer({ DNS_THREADS: '2' });
  // An idle TCP connection, opened first and checked last: the server must close it (RFC 7766 §6.2.3).
  idle = net.connect(s.dns, '127.0.0.1');
  idleClosed = new Promise((r) => idle.on('close', () => r()));
  idle.on('error', () => {});
  expect((await s.api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
  await add('www', 'A', '192.0.2.1');
  await add('www', 'AAAA', '2001:db8::1');
  await add('@', 'MX', '10 mail.example.com');
  await add('mail', 'A', '192.0.2.25');
  await add('alias', 'CNAME', 'www.example.com');
  await add('*.wild', 'TXT', 'from the wildcard');
  await add('sub', 'NS', 'ns1.sub.example.com');
  await add('ns1.sub', 'A', '192.0.2.53');
  await add('a.b', 'TXT', 'deep');
  await add('big', 'TXT', 'x'.repeat(3000));
  await add('big', 'TXT', 'y'.repeat(3000));
});

afterAll(async () => {
  idle?.destroy();
  await s?.stop();
});

describe('dns server (dig)', () => {
  it('answers with AA and echoes the case of the question', async () => {
    const out = await s.dig('WwW.ExAmPlE.cOm', 'A', '+norec');
    expect(status(out)).toBe('NOERROR');
    expect(flags(out)).toContain('aa');
    expect(section(out, 'QUESTION')).toEqual([';WwW.ExAmPlE.cOm. IN A']);
    expect(section(out, 'ANSWER')).toEqual(['WwW.ExAmPlE.cOm. 300 IN A 192.0.2.1']);
  });

  it('answers the same over TCP', async () => {
    expect(await short('www.example.com', 'AAAA', '+tcp')).toEqual(['2001:db8::1']);
  });

  it('serves the SOA built from the domain and the apex NS set', async () => {
    const [soa] = await short('example.com', 'SOA');
    expect(soa).toMatch(/^ns1\.zonedeck\.test\. hostmaster\.zonedeck\.test\. \d{10} 10800 3600 1209600 3600$/);
    expect((await short('example.com', 'NS')).sort()).toEqual(['ns1.zonedeck.test.', 'ns2.zonedeck.test.']);
  });

  it('refuses names outside its zones', async () => {
    const out = await s.dig('example.org', 'A');
    expect(status(out)).toBe('REFUSED');
    expect(flags(out)).not.toContain('aa');
  });

  it('answers NXDOMAIN and NODATA with the SOA in the authority section', async () => {
    const nx = await s.dig('nothing.example.com', 'A');
    expect(status(nx)).toBe('NXDOMAIN');
    expect(flags(nx)).toContain('aa');
    expect(section(nx, 'AUTHORITY')[0]).toMatch(/^example\.com\. 3600 IN SOA /);
    const nodata = await s.dig('www.example.com', 'TXT');
    expect(status(nodata)).toBe('NOERROR');
    expect(section(nodata, 'ANSWER')).toEqual([]);
    expect(section(nodata, 'AUTHORITY')[0]).toMatch(/ SOA /);
    // An empty non-terminal exists.
    expect(status(await s.dig('b.example.com', 'A'))).toBe('NOERROR');
  });

  it('synthesizes wildcard answers under the asked name', async () => {
    const out = await s.dig('anything.wild.example.com', 'TXT');
    expect(section(out, 'ANSWER')).toEqual(['anything.wild.example.com. 300 IN TXT "from the wildcard"']);
  });

  it('follows a CNAME inside the zone', async () => {
    expect(await short('alias.example.com', 'A')).toEqual(['www.example.com.', '192.0.2.1']);
  });

  it('refers below a zone cut with glue, without AA', async () => {
    const out = await s.dig('host.sub.example.com', 'A', '+norec');
    expect(status(out)).toBe('NOERROR');
    expect(flags(out)).not.toContain('aa');
    expect(section(out, 'AUTHORITY')).toEqual(['sub.example.com. 300 IN NS ns1.sub.example.com.']);
    expect(section(out, 'ADDITIONAL')).toContain('ns1.sub.example.com. 300 IN A 192.0.2.53');
  });

  it('adds the addresses of mail exchangers', async () => {
    const out = await s.dig('example.com', 'MX');
    expect(section(out, 'ADDITIONAL')).toContain('mail.example.com. 300 IN A 192.0.2.25');
  });

  it('speaks EDNS(0) with a 1232-octet payload, and plain DNS to plain clients', async () => {
    expect(await s.dig('www.example.com')).toMatch(/EDNS: version: 0, flags:; udp: 1232/);
    expect(await s.dig('www.example.com', '+noedns')).not.toMatch(/OPT PSEUDOSECTION/);
    expect(status(await s.dig('www.example.com', '+edns=1', '+noednsnegotiation'))).toBe('BADVERS');
  });

  it('truncates over UDP and gives the full answer over TCP', async () => {
    const udp = await s.dig('big.example.com', 'TXT', '+ignore');
    expect(flags(udp)).toContain('tc');
    const tcp = await s.dig('big.example.com', 'TXT', '+tcp');
    expect(flags(tcp)).not.toContain('tc');
    expect(section(tcp, 'ANSWER')).toHaveLength(2);
    // dig retries over TCP by itself on TC.
    expect(await short('big.example.com', 'TXT')).toHaveLength(2);
  });

  it('answers ANY minimally over UDP (RFC 8482), in full over TCP', async () => {
    expect(section(await s.dig('www.example.com', 'ANY', '+notcp'), 'ANSWER')).toHaveLength(1);
    expect(section(await s.dig('www.example.com', 'ANY', '+tcp'), 'ANSWER')).toHaveLength(2);
  });

  it('rejects unsupported opcodes and malformed queries', async () => {
    expect(status(await s.dig('www.example.com', '+opcode=2'))).toBe('NOTIMP');
    const broken = packet.encode({ id: 9, type: 'query', questions: [{ name: 'www.example.com', type: 'A' }] }).subarray(0, 22);
    const reply = await udpExchange(broken);
    expect(reply && (packet.decode(reply) as { rcode?: string }).rcode).toBe('FORMERR');
  });

  it('transfers the zone by AXFR to loopback', async () => {
    const out = (await s.dig('example.com', 'AXFR', '+noall', '+answer')).trim().split('\n');
    expect(out[0]).toMatch(/\tSOA\t/);
    expect(out.at(-1)).toMatch(/\tSOA\t/);
    expect(out.some((l) => /^ns1\.sub\.example\.com\.\s+300\s+IN\s+A\s+192\.0\.2\.53$/.test(l))).toBe(true);
  });

  it('answers pipelined TCP queries on one connection, each with its own ID', async () => {
    const ids = [11, 12, 13];
    const msgs = ids.map((id) => packet.encode({ id, type: 'query', questions: [{ name: `${id === 12 ? 'nothing' : 'www'}.example.com`, type: 'A' }] }));
    const replies = (await tcpExchange(msgs, 3)).map((r) => packet.decode(r));
    expect(replies.map((r) => r.id)).toEqual(ids);
    expect(replies.map((r) => (r as { rcode?: string }).rcode)).toEqual(['NOERROR', 'NXDOMAIN', 'NOERROR']);
  });

  it('answers every pipelined query of a client that reads slowly, in order', async () => {
    // 1,000 answers of ~6 kB: far more than the socket buffers hold, so the server must
    // pause reading and resume as the client drains its answers.
    const msgs = Array.from({ length: 1000 }, (_, i) => packet.encode({ id: i, type: 'query', questions: [{ name: 'big.example.com', type: 'TXT' }] }));
    const replies = await tcpExchange(msgs, 1000, 500);
    expect(replies.map((r) => r.readUInt16BE(0))).toEqual(msgs.map((_, i) => i));
    expect(replies.every((r) => packet.decode(r).answers!.length === 2)).toBe(true);
  });

  it('limits TCP connections per client but keeps serving', async () => {
    const socks = await Promise.all(
      Array.from(
        { length: 24 },
        () =>
          new Promise<{ sock: net.Socket; closed: Promise<boolean> }>((resolve) => {
            const sock = net.connect(s.dns, '127.0.0.1');
            const closed = new Promise<boolean>((r) => {
              sock.on('close', () => r(true));
              setTimeout(() => r(false), 1500);
            });
            sock.on('error', () => {});
            sock.on('connect', () => resolve({ sock, closed }));
          }),
      ),
    );
    const closed = (await Promise.all(socks.map((x) => x.closed))).filter(Boolean).length;
    expect(closed).toBeGreaterThanOrEqual(8);
    for (const x of socks) x.sock.destroy();
    expect(await short('www.example.com', 'A', '+tcp')).toEqual(['192.0.2.1']);
  });

  it('answers a change made through the API right after it', async () => {
    const { id } = await add('fresh', 'A', '203.0.113.5');
    expect(await short('fresh.example.com', 'A')).toEqual(['203.0.113.5']);
    const before = (await short('example.com', 'SOA'))[0]!.split(' ')[2];
    expect((await s.api('PUT', `/domains/example.com/records/${id}`, { content: '203.0.113.6' })).status).toBe(200);
    expect(await short('fresh.example.com', 'A')).toEqual(['203.0.113.6']);
    expect((await s.api('DELETE', `/domains/example.com/records/${id}`)).status).toBeLessThan(300);
    expect(status(await s.dig('fresh.example.com', 'A'))).toBe('NXDOMAIN');
    expect((await s.api('PUT', '/domains/example.com', { minimum_ttl: 600 })).status).toBe(200);
    const soa = (await short('example.com', 'SOA'))[0]!.split(' ');
    expect(Number(soa[2])).toBeGreaterThan(Number(before));
    expect(soa[6]).toBe('600');
  });

  it('answers a new zone at once and stops answering a deleted one', async () => {
    expect((await s.api('POST', '/domains', { name: 'other.test' })).status).toBe(201);
    expect(status(await s.dig('other.test', 'SOA'))).toBe('NOERROR');
    expect((await s.api('DELETE', '/domains/other.test')).status).toBeLessThan(300);
    expect(status(await s.dig('other.test', 'SOA'))).toBe('REFUSED');
  });

  it('closes idle TCP connections', async () => {
    await idleClosed;
    expect(idle.destroyed).toBe(true);
  }, 20_000);
});
