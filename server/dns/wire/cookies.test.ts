/**
 * Server cookies as RFC 9018 makes them, so an anycast set of zonedeck, BIND and Knot servers
 * with one secret accepts each other's: SipHash-2-4 checked against its reference vectors, the
 * cookie against the RFC's Appendix A, and the freshness rules of §4.3.
 */
import { describe, expect, it } from 'vitest';
import { CookieJar } from './cookies';
import { clientPrefix } from './client-prefix';
import { siphash24 } from './siphash';

describe('SipHash-2-4', () => {
  it('gives the reference outputs (key 00..0f, messages 00.. of 0, 7, 8 and 15 octets)', () => {
    const key = Uint8Array.from({ length: 16 }, (_, i) => i);
    const hash = (n: number) => {
      const out = Buffer.alloc(8);
      siphash24(
        key,
        Uint8Array.from({ length: n }, (_, i) => i),
        out,
      );
      return out.toString('hex');
    };
    expect(hash(0)).toBe('310e0edd47db6f72');
    expect(hash(7)).toBe('37d1018bf50002ab');
    expect(hash(8)).toBe('6224939a79f5f593');
    expect(hash(15)).toBe('e545be4961ca29a1');
  });
});

describe('server cookies (RFC 9018)', () => {
  const secret = Buffer.from('e5e973e5a6b2a43f48e7dc849e37bfcf', 'hex');
  const client = Buffer.from('2464c4abcf10c957', 'hex');

  it('makes the cookie of Appendix A.1 for its client cookie, address and time', () => {
    const jar = new CookieJar(secret, () => 1559731985);
    expect(jar.make(client, '198.51.100.100').toString('hex')).toBe('010000005cf79f111f8130c3eee29480');
    // The same client behind an IPv4-mapped IPv6 socket address is the same client.
    expect(jar.make(client, '::ffff:198.51.100.100').toString('hex')).toBe('010000005cf79f111f8130c3eee29480');
  });

  it('judges a returned cookie: good within the hour, bad when older, from the future, for another address or forged', () => {
    let now = 1559731985;
    const jar = new CookieJar(secret, () => now);
    const server = jar.make(client, '198.51.100.100');
    expect(jar.check({ client, server }, '198.51.100.100')).toBe('good');
    expect(jar.check({ client, server }, '198.51.100.101')).toBe('bad');
    expect(jar.check({ client, server: null }, '198.51.100.100')).toBe('new');
    const forged = Buffer.from(server);
    forged[15] ^= 1;
    expect(jar.check({ client, server: forged }, '198.51.100.100')).toBe('bad');
    now += 3600;
    expect(jar.check({ client, server }, '198.51.100.100')).toBe('good');
    now += 1;
    expect(jar.check({ client, server }, '198.51.100.100')).toBe('bad');
    now = 1559731985 - 301;
    expect(jar.check({ client, server }, '198.51.100.100')).toBe('bad');
    // Another secret (another service) does not accept it.
    expect(new CookieJar(Buffer.alloc(16, 1), () => 1559731985).check({ client, server }, '198.51.100.100')).toBe('bad');
  });
});

describe('client prefixes for rate limiting', () => {
  it('are the /24 of IPv4 (mapped or not) and the /56 of IPv6', () => {
    expect(clientPrefix('192.0.2.7')).toBe(clientPrefix('192.0.2.200'));
    expect(clientPrefix('192.0.2.7')).not.toBe(clientPrefix('192.0.3.7'));
    expect(clientPrefix('::ffff:192.0.2.7')).toBe(clientPrefix('192.0.2.9'));
    expect(clientPrefix('2001:db8:0:ab00::1')).toBe(clientPrefix('2001:db8:0:abff:ffff::2'));
    expect(clientPrefix('2001:db8:0:ab00::1')).not.toBe(clientPrefix('2001:db8:0:ac00::1'));
  });
});
