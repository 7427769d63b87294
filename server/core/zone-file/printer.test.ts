import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyRecord } from '../../testing/record-arbitraries';
import { EVERY_TYPE_SOA, EVERY_TYPE_ZONE, everyTypeRecords, type TestRecord } from '../../testing/every-type-zone';
import { RECORD_TYPE_BY_CODE, recordType } from '../record-types';
import { parseZoneFile } from './parser';
import { printZoneFile } from './printer';

const SOA = { mname: 'ns1.zonedeck.test', rname: 'hostmaster.zonedeck.test', serial: 2024010101, refresh: 10800, retry: 3600, expire: 1209600, minimum: 300 };
const key = (r: TestRecord) => `${r.name} ${r.ttl} ${r.record_type} ${r.content}`;
const sorted = (rs: readonly TestRecord[]) => rs.map(key).sort();

function withFile<T>(text: string, fn: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-zone-'));
  try {
    const file = path.join(dir, 'zone');
    fs.writeFileSync(file, text);
    return fn(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('printZoneFile', () => {
  it('writes $ORIGIN, $TTL, the SOA, the apex NS set, then every record in canonical name order', () => {
    const text = printZoneFile('example.com', SOA, [
      { name: 'www', record_type: 'A', ttl: 300, content: '192.0.2.1' },
      { name: 'a.www', record_type: 'TXT', ttl: 300, content: 'v=spf1 -all' },
      { name: '@', record_type: 'MX', ttl: 3600, content: '10 mail.example.com' },
      { name: '@', record_type: 'NS', ttl: 3600, content: 'ns2.zonedeck.test' },
      { name: '@', record_type: 'NS', ttl: 3600, content: 'ns1.zonedeck.test' },
      { name: '*', record_type: 'CNAME', ttl: 60, content: 'www.example.com' },
      { name: 'b', record_type: 'SRV', ttl: 60, content: '0 0 0 .' },
    ]);
    expect(text).toBe(
      [
        '$ORIGIN example.com.',
        '$TTL 300',
        '@\t300\tIN\tSOA\tns1.zonedeck.test. hostmaster.zonedeck.test. 2024010101 10800 3600 1209600 300',
        '@\t3600\tIN\tNS\tns1.zonedeck.test.',
        '@\t3600\tIN\tNS\tns2.zonedeck.test.',
        '@\t3600\tIN\tMX\t10 mail.example.com.',
        '*\t60\tIN\tCNAME\twww.example.com.',
        'b\t60\tIN\tSRV\t0 0 0 .',
        'www\t300\tIN\tA\t192.0.2.1',
        'a.www\t300\tIN\tTXT\t"v=spf1 -all"',
        '',
      ].join('\n'),
    );
  });

  it('quotes TXT in strings of at most 255 octets, with \\DDD for everything outside printable ASCII', () => {
    const text = printZoneFile('example.com', SOA, [{ name: 't', record_type: 'TXT', ttl: 1, content: `${'x'.repeat(254)}é\\000"\\\\` }]);
    const line = text.trim().split('\n').at(-1)!;
    expect(line).toBe(`t\t1\tIN\tTXT\t"${'x'.repeat(254)}\\195" "\\169\\000\\"\\\\"`);
  });

  it('prints a zone holding every type that named-checkzone accepts and that reads back unchanged', () => {
    const records = everyTypeRecords();
    const text = printZoneFile(EVERY_TYPE_ZONE, EVERY_TYPE_SOA, records);
    const check = withFile(text, (file) => spawnSync('named-checkzone', ['-i', 'local', EVERY_TYPE_ZONE, file], { encoding: 'utf8' }));
    expect(check.error, 'named-checkzone must be installed (bind9-utils)').toBeUndefined();
    expect(`${check.stdout}${check.stderr}`).toMatch(/loaded serial 2024010101\nOK/);
    expect(check.status).toBe(0);
    const parsed = parseZoneFile(text, EVERY_TYPE_ZONE, { keepApexNs: true });
    expect(parsed.errors).toEqual([]);
    expect(sorted(parsed.records)).toEqual(sorted(records));
  });

  it('writes the same rdata as ldns, an independent encoder, for every type', () => {
    const records = everyTypeRecords();
    const text = printZoneFile(EVERY_TYPE_ZONE, EVERY_TYPE_SOA, records);
    // -U SOA: every record but the SOA in RFC 3597 generic form (\# length hex): ldns's wire form.
    const out = withFile(text, (file) => spawnSync('ldns-read-zone', ['-U', 'SOA', file], { encoding: 'utf8' }));
    expect(out.error, 'ldns-read-zone must be installed (ldnsutils)').toBeUndefined();
    const theirs: string[] = [];
    for (const line of out.stdout.split('\n')) {
      const m = /^(\S+)\s+\d+\s+IN\s+TYPE(\d+)\s+\\# \d+ ?([0-9a-f]*)$/.exec(line);
      if (!m) continue;
      const type = RECORD_TYPE_BY_CODE.get(Number(m[2]))!.type;
      theirs.push(`${m[1]} ${type} ${m[3]}`);
      // And our decoder reads ldns's encoding as the canonical content.
      const owner = m[1] === `${EVERY_TYPE_ZONE}.` ? '@' : m[1]!.slice(0, -EVERY_TYPE_ZONE.length - 2);
      expect(records.some((r) => r.name === owner && r.record_type === type && r.content === recordType(type).fromWire(Buffer.from(m[3]!, 'hex')))).toBe(true);
    }
    const ours = records.map((r) => `${r.name === '@' ? '' : `${r.name}.`}${EVERY_TYPE_ZONE}. ${r.record_type} ${Buffer.from(recordType(r.record_type).toWire(r.content)).toString('hex')}`);
    expect(theirs.sort()).toEqual(ours.sort());
  });
});

const relName = fc.constantFrom('@', 'www', '*', '*.dev', 'a.b.c', '_sip._tcp', 'mail', 'xn--mnchen-3ya');

/** A zone's records: canonical content, one TTL per RRset (as the service keeps them), no duplicates. */
const zoneRecords = fc.array(fc.tuple(relName, anyRecord, fc.integer({ min: 0, max: 2147483647 })), { maxLength: 25 }).map((rows) => {
  const ttls = new Map<string, number>();
  const seen = new Set<string>();
  const out: TestRecord[] = [];
  for (const [name, [type, input], ttl] of rows) {
    const rrset = `${name} ${type}`;
    if (!ttls.has(rrset)) ttls.set(rrset, ttl);
    const r = { name, record_type: type, ttl: ttls.get(rrset)!, content: recordType(type).normalize(input) };
    if (seen.has(key(r))) continue;
    seen.add(key(r));
    out.push(r);
  }
  return out;
});

describe('print and parse, property-based', () => {
  it('print then parse gives the same records and SOA; printing what was parsed gives the same text', () => {
    fc.assert(
      fc.property(zoneRecords, fc.constantFrom('example.com', 'sub.example.org'), (records, zone) => {
        const text = printZoneFile(zone, SOA, records);
        const parsed = parseZoneFile(text, zone, { keepApexNs: true });
        expect(parsed.errors).toEqual([]);
        expect(sorted(parsed.records)).toEqual(sorted(records));
        expect(parsed.soa).toMatchObject({ ...SOA, ttl: SOA.minimum });
        expect(printZoneFile(zone, parsed.soa!, parsed.records)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});
