/**
 * A zone holding every record type of the registry (and the shapes that are easy to get
 * wrong: escapes in TXT, a null MX, AliasMode HTTPS, a DS beside its delegation), for the
 * tests that hand it to real tools: named-checkzone, ldns, dig and kdig.
 */
import { RECORD_TYPES, recordType } from '../core/record-types';

export const EVERY_TYPE_ZONE = 'every-type.test';

export const EVERY_TYPE_SOA = { mname: 'ns1.zonedeck.test', rname: 'hostmaster.zonedeck.test', serial: 2024010101, refresh: 10800, retry: 3600, expire: 1209600, minimum: 300 };

export interface TestRecord {
  name: string;
  record_type: string;
  ttl: number;
  content: string;
}

const extras: Array<[string, string, string]> = [
  ['@', 'NS', 'ns1.zonedeck.test'],
  ['@', 'NS', 'ns2.zonedeck.test'],
  ['@', 'MX', '0 .'],
  ['@', 'HTTPS', '1 . alpn="h3,h2" ipv4hint=192.0.2.1,192.0.2.2 ipv6hint=2001:db8::1'],
  ['alias-https', 'HTTPS', '0 cdn.example.net'],
  ['escapes', 'TXT', 'caf\u00e9 \\"quoted\\" back\\\\slash nul\\000 tab\\009 bad\\255 "as is" ; ( )'],
  ['long', 'TXT', `${'a'.repeat(300)}é${'b'.repeat(300)}`],
  ['empty', 'TXT', ''],
  ['svc', 'SVCB', '1 svc.example.net mandatory=alpn,port alpn="h2" no-default-alpn port=8443 ech=AEn+DQBF dohpath="/q{?dns}" ohttp key65000="x y"'],
  ['sub', 'NS', 'ns1.example.net'],
  ['sub', 'DS', '12345 13 2 E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855'],
  ['naptr2', 'NAPTR', '100 10 "u" "E2U+sip" "!^\\\\+1(.*)$!sip:\\\\1@example.com!" .'],
  ['loc-south', 'LOC', '33 51 35.900 S 151 12 40.000 E 20.00m 0.50m 100m 2m'],
  ['cert2', 'CERT', 'PKIX 12345 RSASHA256 MIICXAIBAAKBgQC8'],
  ['caa2', 'CAA', '128 issue "ca.example; account=1"'],
  ['caa2', 'CAA', '0 iodef "mailto:security@example.com"'],
  ['srv-null', 'SRV', '0 0 0 .'],
];

/** Every registry type once (its example) at a name of its own, plus the extras above. */
export function everyTypeRecords(): TestRecord[] {
  const out: TestRecord[] = [];
  for (const t of RECORD_TYPES) {
    // DS only at a delegation (RFC 4035 §2.4): the extras put one at "sub"; NS below the apex delegates.
    if (t.type === 'DS' || t.type === 'NS') continue;
    out.push({ name: t.type.toLowerCase(), record_type: t.type, ttl: 300, content: t.normalize(t.example) });
  }
  for (const [name, type, content] of extras) out.push({ name, record_type: type, ttl: 600, content: recordType(type).normalize(content) });
  return out;
}
