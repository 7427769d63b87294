/**
 * A small zone signed by a real signer (BIND's dnssec-signzone, bind9-utils), for the tests of
 * serving a signed primary's zone as transferred: its records in the registry's canonical content
 * (DNSSEC ones included), its SOA, and a trust anchor file for `delv`. The zone has an apex with
 * A/MX, names with A/AAAA/TXT, a wildcard, a CNAME, a DNAME onto the wildcard, a delegation with a DS and one without (with
 * glue), and an empty non-terminal.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APEX } from '../core/domain-name';
import { tokenize } from '../core/rdata/presentation';
import { RECORD_TYPE_BY_NAME } from '../core/record-types';
import type { SoaData } from '../dns/index/rrset';

export interface SignedRecord {
  /** Relative to the zone, `@` the apex. */
  name: string;
  record_type: string;
  ttl: number;
  content: string;
}

export interface SignedZone {
  records: SignedRecord[];
  /** The signed file as dnssec-signzone wrote it (one record a line, names absolute). */
  text: string;
  /** `delv -a` file: the zone's KSK as a static trust anchor. */
  anchorFile: string;
  dir: string;
}

const ZSK_DS = '60485 13 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A';

function unsignedZone(zone: string, soa: SoaData): string {
  return `$ORIGIN ${zone}.
$TTL 300
@ ${soa.minimum} IN SOA ${soa.mname}. ${soa.rname}. ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}
@ 3600 NS ns1.zonedeck.test.
@ 3600 NS ns2.zonedeck.test.
@ A 192.0.2.10
@ MX 10 mail
www A 192.0.2.1
www AAAA 2001:db8::1
mail A 192.0.2.25
txt TXT "hello world"
*.wild TXT "from the wildcard"
*.wild A 192.0.2.99
alias CNAME www
moved DNAME wild
host.ent A 192.0.2.7
secure NS ns.secure
secure DS ${ZSK_DS}
ns.secure A 192.0.2.53
insecure NS ns.elsewhere.test.
`;
}

/** Reads one record a line as `dnssec-signzone -O full` writes it. */
export function readSigned(text: string, zone: string): { records: SignedRecord[]; ksk: string } {
  const records: SignedRecord[] = [];
  let ksk = '';
  for (const raw of text.split('\n')) {
    // ldns-read-zone ends DNSKEY lines with a comment ({id = …}).
    const line = raw.replace(/\s;.*$/, '');
    if (line.trim() === '' || line.startsWith(';')) continue;
    const tokens = tokenize(line);
    const [owner, ttl, , type] = tokens.map((t) => t.text);
    if (type === 'SOA') continue;
    const def = RECORD_TYPE_BY_NAME.get(type!);
    if (!def) throw new Error(`signed zone: no registry type for ${line}`);
    const fqdn = owner!.slice(0, -1).toLowerCase();
    const name = fqdn === zone ? APEX : fqdn.slice(0, -(zone.length + 1));
    const content = def.fromTokens(tokens.slice(4), '');
    if (type === 'DNSKEY' && content.startsWith('257 ')) ksk = content;
    records.push({ name, record_type: def.type, ttl: Number(ttl), content });
  }
  return { records, ksk };
}

/** Signs the zone with a KSK and a ZSK (ECDSA P-256): NSEC, or NSEC3 without salt or extra iterations (RFC 9276), opt-out as asked. */
export function signZone(zone: string, soa: SoaData, denial: 'nsec' | 'nsec3' | 'nsec3-optout' = 'nsec'): SignedZone {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-signed-'));
  const unsigned = path.join(dir, 'zone.db');
  fs.writeFileSync(unsigned, unsignedZone(zone, soa));
  const keygen = (ksk: boolean) => execFileSync('dnssec-keygen', ['-q', '-K', dir, '-a', 'ECDSAP256SHA256', ...(ksk ? ['-f', 'KSK'] : []), zone], { encoding: 'utf8' });
  keygen(true);
  keygen(false);
  const nsec3 = denial === 'nsec' ? [] : ['-3', '-', '-H', '0', ...(denial === 'nsec3-optout' ? ['-A'] : [])];
  const signed = path.join(dir, 'zone.signed');
  execFileSync('dnssec-signzone', ['-q', '-S', '-K', dir, '-o', zone, '-O', 'full', '-f', signed, ...nsec3, unsigned], { cwd: dir, encoding: 'utf8' });
  const text = fs.readFileSync(signed, 'utf8');
  const { records, ksk } = readSigned(text, zone);
  const [flags, protocol, algorithm, ...key] = ksk.split(' ');
  const anchorFile = path.join(dir, 'anchor.conf');
  fs.writeFileSync(anchorFile, `trust-anchors { ${zone}. static-key ${flags} ${protocol} ${algorithm} "${key.join('')}"; };\n`);
  return { records, text, anchorFile, dir };
}
