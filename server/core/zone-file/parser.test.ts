import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Invalid } from '../errors';
import { parseZoneFile, parseZoneFileChunked, parseZoneFileOrThrow, type ZoneFileRecord } from './parser';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const simple = (records: ZoneFileRecord[]) => records.map(({ name, record_type, ttl, content }) => `${name} ${ttl} ${record_type} ${content}`).sort();
const parse = (text: string, opts = {}) => parseZoneFile(text, 'example.com', opts);
const errorsOf = (text: string) => parse(text).errors;
const one = (text: string) => {
  const p = parse(text);
  expect(p.errors).toEqual([]);
  return p.records.map(({ line: _, ...r }) => r);
};

describe('files as other servers write them', () => {
  // source.zone was written by hand; the others are what BIND (named-compilezone -s relative),
  // Knot (knotc zone-flush), dig (AXFR from Knot) and pdnsutil list-zone make of it.
  const expected = simple(parse(fixture('source.zone')).records);

  it('reads the hand-written source: every type, relative names, parentheses, $TTL', () => {
    expect(expected).toHaveLength(27);
    expect(expected).toEqual(
      expect.arrayContaining([
        '@ 3600 MX 10 mail.example.com',
        '@ 3600 HTTPS 1 . alpn="h2,h3"',
        'ftp 3600 CNAME www.example.com',
        '_sip._tcp 3600 SRV 10 5 5060 sip.example.com',
        'www 300 A 192.0.2.1',
        'www 3600 AAAA 2001:db8::1',
        'sip 3600 NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.example.com',
        'txt 3600 TXT "semi;colon" "quote\\"d" "back\\\\slash" "café"',
        '*.wild 3600 A 192.0.2.7',
        'sub 3600 NS ns.sub.example.com',
        'office 3600 LOC 52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m',
      ]),
    );
    expect(expected.find((r) => r.startsWith('k1._domainkey'))).toMatch(/^k1._domainkey 3600 TXT "v=DKIM1; k=rsa; p=MIIB\S+" "Ab\S+" "Z0123456789"$/);
  });

  it.each(['bind-compilezone-relative.zone', 'knot-zone-flush.zone', 'dig-axfr.zone', 'pdnsutil-list-zone.zone'])('reads %s as the same records', (file) => {
    const parsed = parse(fixture(file));
    expect(parsed.errors).toEqual([]);
    expect(simple(parsed.records)).toEqual(expected);
    expect(parsed.soa).toMatchObject({ mname: 'ns1.example.com', rname: 'hostmaster.example.com', serial: 2024010101, refresh: 10800, retry: 3600, expire: 1209600, minimum: 300 });
    expect(parsed.ignored.filter((i) => i.record_type === 'NS').map((i) => i.reason)).toEqual(['the apex NS set is managed by zonedeck', 'the apex NS set is managed by zonedeck']);
  });

  it('reads a Cloudflare export: its SOA owner without the dot, TTL 1 for "auto", cf_tags comments', () => {
    const parsed = parse(fixture('cloudflare-export.txt'));
    expect(parsed.errors).toEqual([]);
    expect(parsed.soa).toMatchObject({ mname: 'ada.ns.cloudflare.com', line: 28 });
    expect(simple(parsed.records)).toEqual([
      '@ 1 A 192.0.2.1',
      '@ 1 CAA 0 issue "letsencrypt.org"',
      '@ 1 HTTPS 1 . alpn="h3,h2" ipv4hint=192.0.2.1',
      '@ 1 MX 10 mail.example.com',
      '@ 1 TXT v=spf1 include:_spf.example.net ~all',
      '_dmarc 1 TXT v=DMARC1; p=none',
      '_sip._tcp 1 SRV 10 5 5060 sip.example.com',
      'ftp 1 CNAME www.example.com',
      'mail 300 A 192.0.2.25',
      'www 1 A 192.0.2.1',
      'www 1 AAAA 2001:db8::1',
    ]);
  });

  it('lists the DNSSEC records of a signed export as ignored, not as errors', () => {
    const parsed = parseZoneFile(fixture('knot-signed.zone'), 'signed.example');
    expect(parsed.errors).toEqual([]);
    expect(simple(parsed.records)).toEqual(['ns1 3600 A 192.0.2.1', 'www 3600 A 192.0.2.2', 'www 3600 TXT hello']);
    const ignored = [...new Set(parsed.ignored.map((i) => i.record_type))].sort();
    expect(ignored).toEqual(['CDNSKEY', 'CDS', 'DNSKEY', 'NS', 'NSEC', 'RRSIG']);
    expect(parsed.ignored.find((i) => i.record_type === 'RRSIG')).toMatchObject({ line: 12, name: '@', reason: expect.stringMatching(/DNSSEC/) });
  });
});

describe('master-file syntax', () => {
  it('takes TTL and class in either order, TTL units, and type names in any case', () => {
    expect(one('a 1h IN A 192.0.2.1\nb IN 1w2d A 192.0.2.2\nc in 90 a 192.0.2.3\nd 1H30M a 192.0.2.4\n')).toEqual([
      { name: 'a', record_type: 'A', ttl: 3600, content: '192.0.2.1' },
      { name: 'b', record_type: 'A', ttl: 777600, content: '192.0.2.2' },
      { name: 'c', record_type: 'A', ttl: 90, content: '192.0.2.3' },
      { name: 'd', record_type: 'A', ttl: 5400, content: '192.0.2.4' },
    ]);
  });

  it('defaults the TTL: $TTL, else the last TTL given (RFC 1035 §5.1), else the SOA minimum, else the option', () => {
    expect(one('a A 192.0.2.1').map((r) => r.ttl)).toEqual([3600]);
    expect(parse('a A 192.0.2.1', { defaultTtl: 60 }).records[0]!.ttl).toBe(60);
    expect(one('a 120 A 192.0.2.1\nb A 192.0.2.2').map((r) => r.ttl)).toEqual([120, 120]);
    expect(one('$TTL 1d\na 120 A 192.0.2.1\nb A 192.0.2.2').map((r) => r.ttl)).toEqual([120, 86400]);
    expect(one('@ SOA ns1 host 1 2 3 4 600\na A 192.0.2.1').map((r) => r.ttl)).toEqual([600]);
  });

  it('makes names relative to $ORIGIN, also inside rdata; @ is the origin; blank owners repeat the last', () => {
    const text = ['$ORIGIN example.com.', 'www A 192.0.2.1', '  MX 10 mail', '$ORIGIN sub.example.com.', '@ CNAME www.example.com.', 'x CNAME y', '$ORIGIN deeper', 'z PTR @'].join('\n');
    expect(one(text)).toEqual([
      { name: 'www', record_type: 'A', ttl: 3600, content: '192.0.2.1' },
      { name: 'www', record_type: 'MX', ttl: 3600, content: '10 mail.example.com' },
      { name: 'sub', record_type: 'CNAME', ttl: 3600, content: 'www.example.com' },
      { name: 'x.sub', record_type: 'CNAME', ttl: 3600, content: 'y.sub.example.com' },
      { name: 'z.deeper.sub', record_type: 'PTR', ttl: 3600, content: 'deeper.sub.example.com' },
    ]);
  });

  it('reads quoted strings with \\DDD and \\X escapes and keeps the strings of one TXT apart (RFC 6763 §6)', () => {
    expect(one('t TXT "v=spf1 " "-all"\nu TXT a\\000b "c\\\\d" \\"e\nv TXT "caf\\195\\169" "é"\nw TXT "one string"')).toEqual([
      { name: 't', record_type: 'TXT', ttl: 3600, content: '"v=spf1 " "-all"' },
      { name: 'u', record_type: 'TXT', ttl: 3600, content: '"a\\000b" "c\\\\d" "\\"e"' },
      { name: 'v', record_type: 'TXT', ttl: 3600, content: '"café" "é"' },
      { name: 'w', record_type: 'TXT', ttl: 3600, content: 'one string' },
    ]);
  });

  it('reads RFC 3597 TYPEnnn and \\# generic rdata for known types', () => {
    expect(one('a TYPE1 \\# 4 C0000201\nb TYPE16 \\# 6 05 68656c6c6f\nc CAA \\# 8 0005697373756578')).toEqual([
      { name: 'a', record_type: 'A', ttl: 3600, content: '192.0.2.1' },
      { name: 'b', record_type: 'TXT', ttl: 3600, content: 'hello' },
      { name: 'c', record_type: 'CAA', ttl: 3600, content: '0 issue "x"' },
    ]);
  });

  it('reads TYPE6 as an SOA and the TYPEnnn of DNSSEC types as ignored, like their mnemonics', () => {
    const parsed = parse('@ 600 TYPE6 ns1 host 7 2 3 4 5\nwww TYPE46 \\# 0\nwww A 192.0.2.1');
    expect(parsed.errors).toEqual([]);
    expect(parsed.soa).toMatchObject({ mname: 'ns1.example.com', serial: 7, ttl: 600, line: 1 });
    expect(parsed.ignored).toEqual([{ line: 2, name: 'www', record_type: 'RRSIG', reason: 'DNSSEC records are made by zonedeck when the zone is signed' }]);
    expect(parsed.records.map((r) => [r.name, r.ttl])).toEqual([['www', 600]]);
  });

  it('supports $GENERATE with offsets, widths and bases', () => {
    const records = one('$GENERATE 1-3 host-$ A 192.0.2.$\n$GENERATE 10-20/5 ${-9,3,x} 60 IN CNAME h$.example.net.\n$GENERATE 1-1 lit TXT "x\\$"');
    expect(records).toEqual([
      { name: 'host-1', record_type: 'A', ttl: 3600, content: '192.0.2.1' },
      { name: 'host-2', record_type: 'A', ttl: 3600, content: '192.0.2.2' },
      { name: 'host-3', record_type: 'A', ttl: 3600, content: '192.0.2.3' },
      { name: '001', record_type: 'CNAME', ttl: 60, content: 'h10.example.net' },
      { name: '006', record_type: 'CNAME', ttl: 60, content: 'h15.example.net' },
      { name: '00b', record_type: 'CNAME', ttl: 60, content: 'h20.example.net' },
      { name: 'lit', record_type: 'TXT', ttl: 60, content: 'x$' }, // the last TTL given
    ]);
    expect(errorsOf('$GENERATE 1-100000 h$ A 192.0.2.1')).toEqual([{ line: 1, message: '$GENERATE: at most 65536 records per line' }]);
  });

  it('keeps the apex NS set when asked, and skips records that repeat an earlier one', () => {
    expect(parse('@ NS ns1.example.net.', { keepApexNs: true }).records).toHaveLength(1);
    const p = parse('a A 192.0.2.1\na 60 A 192.0.2.1\n');
    expect(p.records).toHaveLength(1);
    expect(p.ignored).toEqual([{ line: 2, name: 'a', record_type: 'A', reason: 'the same record as on line 1' }]);
  });

  it('takes a file without records', () => {
    expect(parse('; nothing here\n\n')).toEqual({ records: [], ignored: [], errors: [] });
  });
});

describe('errors, each with its line', () => {
  it.each([
    ['$INCLUDE other.zone', '$INCLUDE is not supported: paste the included file in its place'],
    ['$FOO bar', 'unknown directive $FOO'],
    ['$TTL soon', 'TTL "soon" must be a number of seconds, or with units like 1h30m'],
    ['$TTL 4294967296', 'TTL must be at most 2147483647 seconds'],
    ['$ORIGIN', '$ORIGIN must name one domain'],
    ['  A 192.0.2.1', 'the first record must begin with its owner name'],
    ['www 300', 'the record has no type'],
    ['www CH TXT "x"', 'class CH is not supported; only IN'],
    ['www IN 300 FOO bar', 'record type FOO is not supported'],
    ['www TYPE65280 \\# 0', 'record type TYPE65280 is not supported'],
    ['www.example.net. A 192.0.2.1', 'name www.example.net. is outside the zone example.com'],
    ['bad_name! A 192.0.2.1', expect.stringMatching(/^name bad_name!\.example\.com\. label "bad_name!" may contain only/)],
    ['www A 192.0.2.300', 'A: must be an IPv4 address such as 192.0.2.1 (octets 0–255)'],
    ['www MX mail', 'MX: must have the form "preference host", e.g. 10 mail.example.com'],
    ['www TLSA 3 1 1 xyz', 'TLSA: certificate association data must be hex'],
    ['www A \\# 4 c00002', 'A: generic rdata has 3 octets, not the 4 its length says (RFC 3597 §5)'],
    ['www TXT "open', 'a quoted string is not closed on its line'],
    ['www TXT ( "x"', '"(" is never closed'],
    ['www SOA ns1 host 1 2 3 4 5', 'an SOA record must stand at the zone apex'],
    ['@ SOA ns1 host 1 2 3', 'SOA: must have the form "mname rname serial refresh retry expire minimum"'],
  ])('%j: %s', (text, message) => {
    expect(errorsOf(`; first line\n${text}\n`)).toEqual([{ line: 2, message }]);
  });

  it('names the line of every error and goes on reading', () => {
    const text = ['ok A 192.0.2.1', 'bad A nope', 'ok2 A 192.0.2.2', '@ SOA ns1 host 1 2 3 4 5', '@ SOA ns1 host 2 2 3 4 5', 'multi TXT (', '  "a"', '  1.2 )', 'x FOO y'].join('\n');
    const parsed = parse(text);
    expect(parsed.errors).toEqual([
      { line: 2, message: 'A: must be an IPv4 address such as 192.0.2.1' },
      { line: 5, message: 'a second SOA record (the first is on line 4)' },
      { line: 9, message: 'record type FOO is not supported' },
    ]);
    expect(parsed.records.map((r) => [r.name, r.line])).toEqual([
      ['ok', 1],
      ['ok2', 3],
      ['multi', 6],
    ]);
  });

  it('stops past maxRecords', () => {
    // A $GENERATE range is counted before any record is made; reading stops there.
    const parsed = parse('$GENERATE 1-10 h$ A 192.0.2.$\nlater A 192.0.2.1\n', { maxRecords: 5 });
    expect(parsed.records).toHaveLength(0);
    expect(parsed.errors).toEqual([{ line: 1, message: 'the file holds more than 5 records (counting the records of its $GENERATE lines); a zone holds at most MAX_RECORDS_PER_ZONE' }]);
    const plain = parse('a A 192.0.2.1\nb A 192.0.2.2\nc A 192.0.2.3\nd A 192.0.2.4\n', { maxRecords: 3 });
    expect(plain.records).toHaveLength(0);
    expect(plain.errors).toEqual([{ line: 4, message: 'the file holds more than 3 records; a zone holds at most MAX_RECORDS_PER_ZONE' }]);
  });

  it('stops after maxErrors', () => {
    const parsed = parse('x A nope\n'.repeat(10), { maxErrors: 3 });
    expect(parsed.errors.map((e) => e.line)).toEqual([1, 2, 3, 4]);
    expect(parsed.errors[3]!.message).toBe('stopped after 3 errors');
  });

  it('throws one Invalid whose fields are keyed "line <n>", as the API answers 400', () => {
    let caught: unknown;
    try {
      parseZoneFileOrThrow('a A nope\nb A 192.0.2.1 192.0.2.2\n$INCLUDE x\n', 'example.com');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Invalid);
    expect((caught as Invalid).fields).toEqual({
      'line 1': 'A: must be an IPv4 address such as 192.0.2.1',
      'line 2': 'A: must have the form "address", e.g. 192.0.2.1',
      'line 3': '$INCLUDE is not supported: paste the included file in its place',
    });
    expect((caught as Invalid).message).toBe('the zone file has 3 errors: line 1: A: must be an IPv4 address such as 192.0.2.1');
  });
});

describe('big files', () => {
  // A big file read whole; how fast, and at 100k records, is bench/zone-files.ts's figure (the
  // parse of such a file beside its import).
  it('parses 20k records of every common kind, every one', () => {
    const lines = ['$ORIGIN example.com.', '$TTL 300', '@ SOA ns1 hostmaster 1 7200 3600 1209600 300'];
    for (let i = 0; i < 20_000; i++) {
      const n = `host${i}`;
      lines.push(
        i % 4 === 0
          ? `${n} IN TXT "v=spf1 ip4:192.0.2.${i % 256} -all"`
          : i % 4 === 1
            ? `${n} IN MX 10 mail${i}`
            : i % 4 === 2
              ? `${n} 60 IN AAAA 2001:db8::${(i % 65536).toString(16)}`
              : `${n} A 192.0.2.${i % 256}`,
      );
    }
    const text = lines.join('\n');
    const parsed = parse(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toHaveLength(20_000);
    expect(parsed.records.at(-1)).toMatchObject({ name: 'host19999', record_type: 'A', ttl: 300, content: '192.0.2.31' });
  });
});

describe('hostile files, property-based', () => {
  const lines = fixture('source.zone').split('\n');
  const piece = fc.oneof(
    fc.constantFrom(...lines),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('(', ')', '"', '\\', '$ORIGIN', '$TTL', '$GENERATE 1-2', ' ', '\t', '@', ';', '\\# 2 00'),
  );
  it('never throws: every problem is an error with its line', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 6 }).map((p) => p.join(' ')),
          { maxLength: 30 },
        ),
        (ls) => {
          const text = ls.join('\n');
          const parsed = parse(text);
          for (const e of parsed.errors) expect(e.line).toBeGreaterThanOrEqual(1);
          for (const r of parsed.records) expect(r.content).toBe(r.record_type === 'TXT' ? r.content : r.content.trim());
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('bounded before anything is built', () => {
  it('a $GENERATE width past 255 is refused, with a short message, before one record is made', () => {
    const bomb = '$GENERATE 0-3 ${0,200000000} A 192.0.2.1\n'.repeat(5);
    const parsed = parse(bomb);
    expect(parsed.records).toEqual([]);
    expect(parsed.errors).toEqual([1, 2, 3, 4, 5].map((line) => ({ line, message: '$GENERATE: a width must be at most 255' })));
    // The audit's 225 bytes: five full ranges are past the record limit, refused by the count first.
    const audit = parse('$GENERATE 0-65535 ${0,200000000} A 192.0.2.1\n'.repeat(5));
    expect(audit.records).toEqual([]);
    expect(audit.errors).toEqual([{ line: 4, message: 'the file holds more than 200000 records (counting the records of its $GENERATE lines); a zone holds at most MAX_RECORDS_PER_ZONE' }]);
  });

  it('ranges are counted before expansion, across lines, against the record limit', () => {
    const bomb = Array.from({ length: 15 }, (_, k) => `$GENERATE 0-65535 a$-${k} A 192.0.2.1`).join('\n');
    const parsed = parse(bomb, { maxRecords: 200_000 });
    expect(parsed.records).toEqual([]);
    expect(parsed.errors).toEqual([{ line: 4, message: 'the file holds more than 200000 records (counting the records of its $GENERATE lines); a zone holds at most MAX_RECORDS_PER_ZONE' }]);
  });

  it('an offset or a substitution past its bound is refused', () => {
    expect(parse('$GENERATE 0-1 ${99999999999} A 192.0.2.1').errors[0]!.message).toMatch(/^\$GENERATE: a modifier must be/);
    expect(parse('$GENERATE 0-1 ${0,255} A 192.0.2.1').errors[0]!.message).toMatch(/longer than 63/);
    expect(parse(`$GENERATE 0-1 ${'${0,200}'.repeat(6)} A 192.0.2.1`).errors[0]!.message).toBe('$GENERATE: a substituted name or rdata would be longer than 1024 characters');
  });

  it('error messages and their number are capped, whatever the file quotes', () => {
    const long = `${'x'.repeat(100_000)} A 192.0.2.1\n`;
    const parsed = parse(long.repeat(50));
    expect(parsed.errors).toHaveLength(21);
    expect(parsed.errors.at(-1)!.message).toBe('stopped after 20 errors');
    expect(Math.max(...parsed.errors.map((e) => e.message.length))).toBeLessThanOrEqual(240);
    expect(parse(`www TXT ${'"a" '.repeat(50_000)}\n`).errors[0]!.message).toMatch(/^the entry is longer than 140000 characters/);
  });

  it('the chunked reader gives the same result as the plain one, and lets timers run while it reads', async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `h${i} 300 IN A 192.0.2.${i % 250}`).join('\n');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const chunked = await parseZoneFileChunked(text, 'example.com');
    clearInterval(timer);
    expect(chunked).toEqual(parse(text));
    expect(ticks).toBeGreaterThan(2);
  });

  it('the chunked reader lets timers run while one $GENERATE line makes its records', async () => {
    const text = '$GENERATE 1-20000 h$ 300 IN A 192.0.2.1\n';
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const chunked = await parseZoneFileChunked(text, 'example.com');
    clearInterval(timer);
    expect(chunked.records).toHaveLength(20_000);
    expect(chunked).toEqual(parse(text));
    expect(ticks).toBeGreaterThan(2);
  });
});
