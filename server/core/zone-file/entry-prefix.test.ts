import { describe, expect, it } from 'vitest';
import { tokenize } from '../rdata/presentation';
import { readPrefix } from './entry-prefix';

const prefix = (text: string) => {
  const { ttl, type, rdata } = readPrefix(tokenize(text), 1);
  return { ttl, type, rdata: rdata.map((t) => t.text) };
};

describe('what follows the owner: [ttl] [class] type', () => {
  it('takes TTL and class in either order, or neither, and leaves the rest as the rdata', () => {
    expect(prefix('www 1h IN A 192.0.2.1')).toEqual({ ttl: 3600, type: 'A', rdata: ['192.0.2.1'] });
    expect(prefix('www in 60 mx 10 mail')).toEqual({ ttl: 60, type: 'MX', rdata: ['10', 'mail'] });
    expect(prefix('www TXT "a" "b"')).toEqual({ ttl: undefined, type: 'TXT', rdata: ['"a"', '"b"'] });
  });

  it('names TYPEnnn by its mnemonic when the type is known, and keeps it otherwise', () => {
    expect(prefix('www TYPE28 \\# 0').type).toBe('AAAA');
    expect(prefix('@ TYPE6 ns1 host 1 2 3 4 5').type).toBe('SOA');
    expect(prefix('www TYPE48 \\# 0').type).toBe('DNSKEY');
    expect(prefix('www TYPE65280 \\# 0').type).toBe('TYPE65280');
  });

  it('refuses a missing type, a class other than IN, and a bad TTL', () => {
    expect(() => prefix('www 300 IN')).toThrow('the record has no type');
    expect(() => prefix('www HS A 192.0.2.1')).toThrow('class HS is not supported; only IN');
    expect(() => prefix('www 1y A 192.0.2.1')).toThrow('TTL "1y" must be a number of seconds, or with units like 1h30m');
  });
});
