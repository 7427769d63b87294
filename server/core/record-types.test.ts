import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTENT } from '../testing/record-arbitraries';
import { tokenize } from './rdata/presentation';
import { RECORD_TYPES, RECORD_TYPE_BY_CODE, recordType, txtChunks } from './record-types';

const normalize = (type: string, content: string) => recordType(type).normalize(content);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const H64 = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';

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
    ['CAA', '0 issue ";"', '0 issue ";"'],
    ['CAA', '0 tbs "Unknown \\"x\\""', '0 tbs "Unknown \\"x\\""'],
    ['PTR', 'host.example.com', 'host.example.com'],
    // DS digests, TLSA data and fingerprints: upper-case hex without spaces (kdig's form; dig splits every 56 digits).
    ['DS', `12345 13 2 ${H64.toLowerCase().slice(0, 20)} ${H64.toLowerCase().slice(20)}`, `12345 13 2 ${H64}`],
    ['DS', `2371 ECDSAP256SHA256 2 ${H64}`, `2371 13 2 ${H64}`],
    ['DS', '1 8 9 00', '1 8 9 00'],
    ['TLSA', `3 1 1 ${H64.toLowerCase()}`, `3 1 1 ${H64}`],
    ['TLSA', '3 0 0 3082', '3 0 0 3082'],
    ['SMIMEA', `3 1 1 ${H64}`, `3 1 1 ${H64}`],
    ['SSHFP', '1 1 dd465c09cfa51fb45020cc83316fff21b9ec74ac', '1 1 DD465C09CFA51FB45020CC83316FFF21B9EC74AC'],
    // SVCB/HTTPS: keys in numeric order (RFC 9460 §2.2), alpn quoted and mandatory sorted as dig prints them.
    ['HTTPS', '1 . ipv4hint=192.0.2.1 alpn=h3,h2', '1 . alpn="h3,h2" ipv4hint=192.0.2.1'],
    ['HTTPS', '0 CDN.Example.NET.', '0 cdn.example.net'],
    [
      'SVCB',
      '1 svc.example.com. port=8443 mandatory=port,alpn alpn=h2 no-default-alpn ipv6hint=2001:DB8::1,::1',
      '1 svc.example.com mandatory=alpn,port alpn="h2" no-default-alpn port=8443 ipv6hint=2001:db8::1,::1',
    ],
    ['SVCB', '1 . key65000=abc dohpath=/q{?dns} ohttp ech="AAAA"', '1 . ech=AAAA key7="/q{?dns}" key8 key65000="abc"'],
    ['SVCB', '1 . alpn="f\\\\\\\\oo\\\\,bar,h2"', '1 . alpn="f\\\\\\\\oo\\\\,bar,h2"'], // RFC 9460 Appendix A.1: ids "f\oo,bar" and "h2"
    ['NAPTR', '100 10 S SIP+D2U "" _sip._udp.example.com.', '100 10 "S" "SIP+D2U" "" _sip._udp.example.com'],
    ['NAPTR', '100 10 "u" "E2U+sip" "!^\\\\+1(.*)$!sip:\\\\1@example.com!" .', '100 10 "u" "E2U+sip" "!^\\\\+1(.*)$!sip:\\\\1@example.com!" .'],
    ['URI', '10 1 "ftp://ftp1.example.com/public"', '10 1 "ftp://ftp1.example.com/public"'],
    // LOC as dig prints it: every field, defaults filled in (RFC 1876 §3), sizes rounded down like BIND.
    ['LOC', '52 22 23 N 4 53 32 E -2m', '52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m'],
    ['LOC', '42 21 54.5 N 71 06 18 W -24m 30m', '42 21 54.500 N 71 6 18.000 W -24.00m 30m 10000m 10m'],
    ['LOC', '52 22 23.5 N 4 53 32.123 E 100 25m 0.5m 12.34m', '52 22 23.500 N 4 53 32.123 E 100.00m 20m 0.50m 10m'],
    ['LOC', '90 S 180 W 42849672.95m 90000000m 0m 0.01m', '90 0 0.000 S 180 0 0.000 W 42849672.95m 90000000m 0.00m 0.01m'],
    ['HINFO', 'PC-Intel Linux', '"PC-Intel" "Linux"'],
    ['HINFO', '"x86 64" "Linux 6"', '"x86 64" "Linux 6"'],
    // CERT type and algorithm by mnemonic where there is one, as dig prints them (kdig prints numbers).
    ['CERT', '1 12345 8 MIIC XAIBAAKBgQC8', 'PKIX 12345 RSASHA256 MIICXAIBAAKBgQC8'],
    ['CERT', '65000 65535 255 AAAA', '65000 65535 255 AAAA'],
    ['OPENPGPKEY', 'mQINBFit2jsBEADrbl5vjVxY eAE0g0IDYCBpHirv1Sjlqxx5', 'mQINBFit2jsBEADrbl5vjVxYeAE0g0IDYCBpHirv1Sjlqxx5'],
    ['DNAME', 'Example.NET.', 'example.net'],
    // RFC 3597 §5 generic form, for any type.
    ['A', '\\# 4 C0000201', '192.0.2.1'],
    ['MX', '\\# 5 000a 01 6d 00', '10 m'],
  ])('%s %j is stored as %j', (type, input, expected) => {
    expect(normalize(type, input)).toBe(expected);
  });

  it.each([
    ['A', '192.0.2', /^A: must be an IPv4 address/],
    ['A', '2001:db8::1', /IPv4 address/],
    ['A', '192.0.2.256', /0–255/],
    ['AAAA', '192.0.2.1', /^AAAA: must be an IPv6 address/],
    ['AAAA', '2001:db8::g', /IPv6 address/],
    ['CNAME', 'not a name', /may contain only/],
    ['CNAME', '.', /root/],
    ['MX', 'mail.example.com', /^MX: must have the form "preference host"/],
    ['MX', '70000 mail.example.com', /^MX: preference must be a whole number from 0 to 65535/],
    ['MX', '10 .', /null MX/],
    ['SRV', '10 5 sip.example.com', /priority weight port target/],
    ['SRV', '10 5 99999 sip.example.com', /port must be/],
    ['CAA', '0 issue', /flags tag "value"/],
    ['CAA', '256 issue "x"', /flags must be/],
    ['CAA', '0 is-sue "x"', /tag must be/],
    ['CAA', '0 issue "a" "b"', /one quoted string/],
    ['CAA', '0 issue lets encrypt', /must be quoted/],
    ['TXT', 'x'.repeat(4001), /^TXT: must be at most 4000 octets/],
    ['TXT', 'ends in \\', /^TXT: text ends with a lone backslash/],
    ['TXT', 'bad \\256', /at most 255/],
    ['TLSA', '3 1 1 xyz', /^TLSA: certificate association data must be hex$/],
    ['TLSA', '3 1 1 abc', /^TLSA: certificate association data must be hex with an even number of digits$/],
    ['TLSA', '3 1 1 abcd', /^TLSA: certificate association data must be 32 octets \(64 hex digits\) for matching type 1/],
    ['TLSA', '3 1 1', /^TLSA: must have the form "usage selector matching data"/],
    ['TLSA', '256 1 1 ab', /^TLSA: certificate usage must be a whole number from 0 to 255$/],
    ['SMIMEA', '3 1 2 abcd', /^SMIMEA: certificate association data must be 64 octets/],
    ['DS', '12345 13 2 abcd', /^DS: digest must be 32 octets \(64 hex digits\) for digest type 2 \(SHA-256\)$/],
    ['DS', `12345 FOO 2 ${H64}`, /^DS: algorithm must be a whole number from 0 to 255 or a name such as RSAMD5$/],
    ['SSHFP', '1 1 abcd', /^SSHFP: fingerprint must be 20 octets/],
    ['SSHFP', '1 1 ghij', /^SSHFP: fingerprint must be hex$/],
    ['HTTPS', '0 foo.example.org alpn=h2', /^HTTPS: an AliasMode record \(priority 0\) takes no parameters \(RFC 9460 §2.4.2\)$/],
    ['HTTPS', '1 . mandatory=alpn', /^HTTPS: mandatory lists alpn, which is missing \(RFC 9460 §8\)$/],
    ['HTTPS', '1 . no-default-alpn', /no-default-alpn needs alpn beside it \(RFC 9460 §7.1.1\)/],
    ['HTTPS', '1 . port=1 port=2', /parameter port appears twice/],
    ['HTTPS', '1 . dohpath=/a key7=/b', /parameter key7 appears twice/],
    ['HTTPS', '1 . port=x', /port must be a whole number/],
    ['HTTPS', '1 . ipv4hint=1.2.3', /ipv4hint must be an IPv4 address/],
    ['HTTPS', '1 . foo=bar', /unknown parameter key "foo"/],
    ['HTTPS', '1 . key65535=x', /reserved/],
    ['HTTPS', '1 . alpn', /alpn needs a value/],
    ['HTTPS', '1 . ech=!!', /ech must be base64/],
    ['SVCB', '1 . mandatory=mandatory', /must not list itself/],
    ['NAPTR', '100 10 "S!" "SIP+D2U" "" .', /^NAPTR: flags must be letters or digits \(RFC 3403 §4.1\)$/],
    ['NAPTR', '100 10 "S" "SIP+D2U" ""', /^NAPTR: must have the form "order preference flags services regexp replacement"/],
    ['URI', '10 1 ""', /^URI: target URI must not be empty$/],
    ['LOC', '52 22 23 X 4 53 32 E -2m', /^LOC: latitude must be degrees \[minutes \[seconds\]\] followed by N or S$/],
    ['LOC', '91 N 4 E 0m', /latitude degrees must be a whole number from 0 to 90/],
    ['LOC', '52 N 4 E', /altitude must be in metres/],
    ['LOC', '52 N 4 E 0m 1m 1m 1m 1m', /after the vertical precision/],
    ['HINFO', '"only one"', /^HINFO: must have the form "cpu os"/],
    ['HINFO', `"${'x'.repeat(256)}" "y"`, /^HINFO: CPU must be at most 255 octets$/],
    ['CERT', 'PKIX 0 0 not*base64', /^CERT: certificate must be base64$/],
    ['OPENPGPKEY', 'abc', /^OPENPGPKEY: public key must be base64$/],
    ['DNAME', '.', /^DNAME: target must be a host name, not the root/],
    ['A', '\\# 3 c00002', /^A: rdata ends inside the data|^A: must be/],
    ['A', '\\# 4 c00002', /generic rdata has 3 octets, not the 4/],
  ])('%s %j is rejected', (type, input, message) => {
    expect(() => normalize(type, input)).toThrow(message);
  });

  it('knows the supported types, each once, by name and by code', () => {
    const names = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA', 'PTR', 'DS', 'TLSA', 'SSHFP', 'SVCB', 'HTTPS', 'NAPTR', 'URI', 'LOC', 'HINFO', 'CERT', 'OPENPGPKEY', 'SMIMEA', 'DNAME'];
    expect(RECORD_TYPES.map((t) => t.type).sort()).toEqual([...names].sort());
    expect(new Set(RECORD_TYPES.map((t) => t.code)).size).toBe(names.length);
    expect(() => recordType('SOA')).toThrow(/must be one of A, AAAA/);
    expect(recordType('mx').type).toBe('MX');
    expect(RECORD_TYPE_BY_CODE.get(65)!.type).toBe('HTTPS');
    expect(RECORD_TYPES.filter((t) => !t.allowedAtApex).map((t) => [t.type, t.apexRule])).toEqual([
      ['CNAME', 'a CNAME record cannot stand at the zone apex (RFC 1034 §3.6.2)'],
      ['NS', 'the NS set at the apex is managed by zonedeck'],
      ['DS', 'a DS record belongs in the parent zone, at the delegation (RFC 4035 §2.4)'],
    ]);
  });

  it('every type round-trips its example through split and join, one value per editor field', () => {
    for (const t of RECORD_TYPES) {
      const canonical = t.normalize(t.example);
      expect(canonical, t.type).toBe(t.example);
      expect(t.normalize(t.join(t.split(canonical))), t.type).toBe(canonical);
      expect(t.split(canonical)).toHaveLength(t.fields.length);
      for (const f of t.fields) expect(f.label && f.hint && f.name, `${t.type} ${f.name}`).toBeTruthy();
    }
  });

  it('shows character-strings unquoted in the editor and quotes what is typed', () => {
    expect(recordType('CAA').split('0 issue "letsencrypt.org"')).toEqual(['0', 'issue', 'letsencrypt.org']);
    expect(recordType('NAPTR').join(['100', '10', 'u', 'E2U+sip', '!^.*$!sip:"x"@example.com!', '.'])).toBe('100 10 "u" "E2U+sip" "!^.*$!sip:\\"x\\"@example.com!" .');
    expect(recordType('HINFO').split('"x86 64" "Linux"')).toEqual(['x86 64', 'Linux']);
    expect(recordType('HTTPS').split('1 . alpn="h2,h3" port=443')).toEqual(['1', '.', 'alpn="h2,h3" port=443']);
  });

  it('splits long TXT into strings of at most 255 octets on octet boundaries', () => {
    const text = 'é'.repeat(300); // 600 octets
    const chunks = txtChunks(text);
    expect(chunks.map((c) => c.length)).toEqual([255, 255, 90]);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(text);
    expect(txtChunks('')).toHaveLength(1);
    expect(Array.from(txtChunks('a\\000b')[0]!)).toEqual([0x61, 0, 0x62]);
  });

  it('gives the DNS writer dns-packet shapes for the types it compresses, finished rdata for the rest', () => {
    expect(recordType('MX').wireData('10 mail.example.com')).toEqual({ preference: 10, exchange: 'mail.example.com' });
    expect(recordType('MX').wireData('0 .')).toEqual({ preference: 0, exchange: '' });
    expect(recordType('SRV').wireData('1 2 3 t.example.com')).toEqual({ priority: 1, weight: 2, port: 3, target: 't.example.com' });
    // dns-packet's CAA codec overwrites flags when the critical bit is set: its rdata is ours.
    expect(hex(recordType('CAA').wireData('129 issue "ca.example"') as Uint8Array)).toBe('8105697373756563612e6578616d706c65');
    expect(hex(recordType('DNAME').wireData('example.net') as Uint8Array)).toBe('076578616d706c65036e657400');
  });
});

describe('presentation text as dig prints it and PowerDNS sends it', () => {
  it.each([
    ['MX', '10 mail.example.com.', '10 mail.example.com'],
    ['TXT', '"v=spf1 " "-all"', '"v=spf1 " "-all"'],
    ['TXT', '"v=spf1 -all"', 'v=spf1 -all'],
    ['TXT', '"caf\\195\\169 \\"q\\""', 'café "q"'],
    ['SRV', '0 5 5060 sip', '0 5 5060 sip'],
    ['CNAME', 'www', 'www.example.com', 'example.com'],
    ['DS', '12345 13 2 E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B 934CA495991B7852B855', `12345 13 2 ${H64}`],
  ])('%s %j', (type, text, content, origin?: string) => {
    expect(recordType(type).fromText(text, origin)).toBe(content);
    expect(recordType(type).fromText(recordType(type).zoneText(content))).toBe(content);
  });
});

describe('wire form', () => {
  it('refuses record data longer than a record can carry (RDLENGTH is 16 bits, RFC 1035 §3.2.1), however it is written', () => {
    const uri = recordType('URI')!;
    // 4 octets of priority and weight, then the target: 65,531 octets of target is the longest.
    expect(uri.toWire(uri.normalize(`1 1 "${'a'.repeat(65_531)}"`))).toHaveLength(65_535);
    expect(() => uri.normalize(`1 1 "${'a'.repeat(65_532)}"`)).toThrow('URI: the record data must be at most 65,535 octets on the wire (RFC 1035 §3.2.1)');
    expect(() => uri.fromText(`1 1 "${'a'.repeat(200_000)}"`, 'example.com')).toThrow(/at most 65,535 octets/);
    expect(() => uri.fromTokens(tokenize(`1 1 "${'\\065'.repeat(70_000)}"`), 'example.com')).toThrow(/at most 65,535 octets/);
    // RFC 3597's generic form says its length itself.
    expect(() => uri.normalize(`\\# 70000 ${'00'.repeat(70_000)}`)).toThrow(/generic rdata must be at most 65,535 octets/);
  });

  it.each([
    ['A', '192.0.2.1', 'c0000201'],
    ['MX', '10 mail.example.com', '000a046d61696c076578616d706c6503636f6d00'],
    ['TXT', 'a\\000b', '03610062'],
    ['CAA', '0 issue "letsencrypt.org"', '000569737375656c657473656e63727970742e6f7267'],
    ['DS', `12345 13 2 ${H64}`, `30390d02${H64.toLowerCase()}`],
    ['SSHFP', '1 1 DD465C09CFA51FB45020CC83316FFF21B9EC74AC', '0101dd465c09cfa51fb45020cc83316fff21b9ec74ac'],
    // RFC 9460 Appendix D.2, "Figure 4": a ServiceMode record with port.
    ['SVCB', '16 foo.example.com port=53', '0010' + '03666f6f076578616d706c6503636f6d00' + '00030002' + '0035'],
    // Appendix D.2 figure 8: mandatory, alpn with the escapes of A.1.
    [
      'SVCB',
      '16 foo.example.org mandatory=alpn,ipv4hint alpn="h2,h3-19" ipv4hint=192.0.2.1',
      '0010' + '03666f6f076578616d706c65036f726700' + '0000000400010004' + '000100090268320568332d3139' + '00040004c0000201',
    ],
    ['LOC', '52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m', '00121613' + '8b3cf018' + '810cbce0' + '009895b8'],
    ['URI', '10 1 "ftp://ftp1.example.com/public"', '000a0001' + Buffer.from('ftp://ftp1.example.com/public').toString('hex')],
    ['HINFO', '"PC" "Linux"', '025043' + '054c696e7578'],
  ])('%s %s is %s', (type, content, wire) => {
    const t = recordType(type);
    expect(hex(t.toWire(content))).toBe(wire);
    expect(t.fromWire(Buffer.from(wire, 'hex'))).toBe(content);
  });

  it('follows compression pointers into the message, and refuses them without one (RFC 3597 §4)', () => {
    // A message whose offset 12 holds "example.com"; the MX rdata at offset 30 points there.
    const name = Buffer.from('076578616d706c6503636f6d00', 'hex');
    const rdata = Buffer.from('000a046d61696cc00c', 'hex');
    const message = Buffer.concat([Buffer.alloc(12), name, Buffer.alloc(5), rdata]);
    expect(recordType('MX').fromWire(rdata, { message, offset: 30 })).toBe('10 mail.example.com');
    expect(() => recordType('MX').fromWire(rdata)).toThrow(/^MX: has a compressed name/);
    const loop = Buffer.from('000ac002', 'hex');
    expect(() => recordType('MX').fromWire(loop, { message: loop, offset: 0 })).toThrow(/compression loop/);
  });

  it.each([
    ['A', 'c00002', /^A: rdata ends inside/],
    ['A', 'c000020101', /^A: rdata has 1 octets after/],
    ['MX', '000a05', /^MX: rdata ends inside a name/],
    ['TXT', '05616263', /^TXT: rdata ends inside the text/],
    ['SVCB', '0001' + '00' + '0003000201bb' + '00010003026832', /increasing key order/],
    ['LOC', '011216138b3cf018810cbce0009895b8', /version must be 0/],
    ['LOC', '00a216138b3cf018810cbce0009895b8', /mantissa and exponent from 0 to 9/],
    ['DS', '30390d02abcd', /^DS: digest must be 32 octets/],
    ['TLSA', '030101', /^TLSA: certificate association data must not be empty/],
    ['CNAME', '03e282ac00', /may contain only/],
  ])('%s rdata %s is refused', (type, wire, message) => {
    expect(() => recordType(type).fromWire(Buffer.from(wire, 'hex'))).toThrow(message);
  });
});

describe('every type, property-based', () => {
  for (const t of RECORD_TYPES) {
    it(`${t.type}: canonical content is a fixed point and survives the wire and a master file`, () => {
      fc.assert(
        fc.property(CONTENT[t.type]!, (input) => {
          const canonical = t.normalize(input);
          expect(t.normalize(canonical)).toBe(canonical);
          expect(t.fromWire(t.toWire(canonical))).toBe(canonical);
          const zone = t.zoneText(canonical);
          expect(zone).toMatch(/^[\x20-\x7e]*$/);
          expect(t.fromTokens(tokenize(zone), 'elsewhere.example')).toBe(canonical);
          expect(t.normalize(t.join(t.split(canonical)))).toBe(canonical);
        }),
        { numRuns: 150 },
      );
    });
  }
});

describe('hostile input, property-based', () => {
  const junk = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.array(fc.constantFrom('\\', '"', ' ', '1', '0', '.', 'a', '=', ',', '#', '\\#', 'm', 'N', 'E', '-', ';', '(', 'é', '\u0000'), { maxLength: 30 }).map((a) => a.join('')),
    anyRecordMutated(),
  );
  function anyRecordMutated() {
    return fc.tuple(fc.constantFrom(...Object.keys(CONTENT)), fc.nat(), fc.string({ maxLength: 3 })).chain(([type, at, insert]) =>
      CONTENT[type]!.map((c) => {
        const i = at % (c.length + 1);
        return c.slice(0, i) + insert + c.slice(i + 1);
      }),
    );
  }

  it('normalize either refuses with a RuleError naming the type or gives a fixed point', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RECORD_TYPES), junk, (t, input) => {
        let canonical: string;
        try {
          canonical = t.normalize(input);
        } catch (e) {
          expect((e as Error).constructor.name).toBe('RuleError');
          expect((e as Error).message.startsWith(`${t.type}: `)).toBe(true);
          return;
        }
        expect(t.normalize(canonical)).toBe(canonical);
        expect(t.fromWire(t.toWire(canonical))).toBe(canonical);
      }),
      { numRuns: 3000 },
    );
  });

  it('fromWire either refuses with a RuleError or gives canonical content that encodes back', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RECORD_TYPES), fc.uint8Array({ maxLength: 60 }), (t, rdata) => {
        let content: string;
        try {
          content = t.fromWire(rdata);
        } catch (e) {
          expect((e as Error).constructor.name).toBe('RuleError');
          return;
        }
        expect(t.normalize(content)).toBe(content);
        expect(t.fromWire(t.toWire(content))).toBe(content);
      }),
      { numRuns: 3000 },
    );
  });
});
