import { describe, expect, it } from 'vitest';
import { RECORD_TYPES, recordType, txtChunks } from './record-types';

const normalize = (type: string, content: string) => recordType(type).normalize(content);

describe('record content per type', () => {
  it.each([
    ['A', '192.0.2.1', '192.0.2.1'],
    ['AAAA', '2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['AAAA', '::ffff:192.0.2.1', '::ffff:c000:201'],
    ['CNAME', 'Target.Example.NET.', 'target.example.net'],
    ['MX', '10   Mail.Example.com.', '10 mail.example.com'],
    ['MX', '0 .', '0 .'],
    ['TXT', 'v=spf1 -all', 'v=spf1 -all'],
    ['TXT', '"quoted" stays literal', '"quoted" stays literal'],
    ['NS', 'ns1.example.net.', 'ns1.example.net'],
    ['SRV', '10 5 443 sip.example.com.', '10 5 443 sip.example.com'],
    ['SRV', '0 0 0 .', '0 0 0 .'],
    ['CAA', '0 issue "letsencrypt.org"', '0 issue "letsencrypt.org"'],
    ['CAA', '128 ISSUE letsencrypt.org', '128 issue "letsencrypt.org"'],
    ['CAA', '0 iodef "mailto:security@example.com"', '0 iodef "mailto:security@example.com"'],
    ['PTR', 'host.example.com', 'host.example.com'],
  ])('%s %j is stored as %j', (type, input, expected) => {
    expect(normalize(type, input)).toBe(expected);
  });

  it.each([
    ['A', '192.0.2', /IPv4 address/],
    ['A', '2001:db8::1', /IPv4 address/],
    ['A', '192.0.2.256', /0–255/],
    ['AAAA', '192.0.2.1', /IPv6 address/],
    ['AAAA', '2001:db8::g', /IPv6 address/],
    ['CNAME', 'not a name', /may contain only/],
    ['CNAME', '.', /root/],
    ['MX', 'mail.example.com', /preference host/],
    ['MX', '70000 mail.example.com', /preference must be a whole number from 0 to 65535/],
    ['MX', '10 .', /null MX/],
    ['SRV', '10 5 sip.example.com', /priority weight port target/],
    ['SRV', '10 5 99999 sip.example.com', /port must be/],
    ['CAA', '0 issue', /flags tag "value"/],
    ['CAA', '256 issue "x"', /flags must be/],
    ['CAA', '0 is-sue "x"', /tag must be/],
    ['CAA', '0 issue "a" "b"', /one quoted string/],
    ['TXT', 'x'.repeat(4001), /at most 4000 octets/],
  ])('%s %j is rejected', (type, input, message) => {
    expect(() => normalize(type, input)).toThrow(message);
  });

  it('knows the types an operator expects', () => {
    expect(RECORD_TYPES.map((t) => t.type)).toEqual(expect.arrayContaining(['A', 'AAAA', 'TXT', 'CNAME', 'MX', 'NS', 'SRV', 'CAA', 'PTR']));
    expect(() => recordType('SOA')).toThrow(/must be one of A, AAAA/);
    expect(recordType('mx').type).toBe('MX');
  });

  it('every type round-trips its example through split and join', () => {
    for (const t of RECORD_TYPES) {
      const canonical = t.normalize(t.example);
      expect(t.normalize(t.join(t.split(canonical))), t.type).toBe(canonical);
      expect(t.split(canonical)).toHaveLength(t.fields.length);
    }
  });

  it('splits long TXT into strings of at most 255 octets on octet boundaries', () => {
    const text = 'é'.repeat(300); // 600 octets
    const chunks = txtChunks(text);
    expect(chunks.map((c) => c.length)).toEqual([255, 255, 90]);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(text);
    expect(txtChunks('')).toHaveLength(1);
  });

  it('gives MX and SRV wire data in numeric form', () => {
    expect(recordType('MX').wireData('10 mail.example.com')).toEqual({ preference: 10, exchange: 'mail.example.com' });
    expect(recordType('SRV').wireData('1 2 3 t.example.com')).toEqual({ priority: 1, weight: 2, port: 3, target: 't.example.com' });
    expect(recordType('CAA').wireData('128 issue "ca.example"')).toEqual({ flags: 128, tag: 'issue', value: 'ca.example', issuerCritical: true });
  });
});
