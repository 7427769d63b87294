/**
 * The DNSSEC types a signed primary transfers: each record dnssec-signzone and ldns-signzone print
 * (NSEC, NSEC3 with and without opt-out) reads into content that prints back as the signer printed
 * it, goes to the wire and back unchanged; odd but valid forms (escaped names, empty bitmaps,
 * times as numbers) read, bad ones are refused with a message naming the field.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenize } from './rdata/presentation';
import { RECORD_TYPE_BY_CODE, RECORD_TYPE_BY_NAME, TRANSFER_ONLY_TYPES, WRITABLE_TYPES, transferOnlyRefusal } from './record-types';
import { readSigned, signZone } from '../testing/signed-zone';

const SOA = { mname: 'ns1.zonedeck.test', rname: 'hostmaster.zonedeck.test', serial: 1, refresh: 10800, retry: 3600, expire: 1209600, minimum: 3600 };
const type = (name: string) => RECORD_TYPE_BY_NAME.get(name)!;

/** Each record of a signed file: its type and its rdata tokens as the signer printed them. */
function printed(text: string): { type: string; rdata: string }[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith(';'))
    .map((l) => tokenize(l).map((t) => t.text))
    .filter((t) => t[3] !== 'SOA')
    .map((t) => ({ type: t[3]!, rdata: t.slice(4).join(' ') }));
}

function roundTrips(text: string, zone: string): void {
  const { records } = readSigned(text, zone);
  const lines = printed(text);
  expect(records.length).toBe(lines.length);
  records.forEach((r, i) => {
    const def = type(r.record_type);
    // The master-file text is the signer's, but for the spaces it splits base64 with.
    expect(def.zoneText(r.content).replace(/ /g, '')).toBe(lines[i]!.rdata.replace(/ /g, ''));
    expect(def.fromWire(def.toWire(r.content))).toBe(r.content);
    expect(def.normalize(r.content)).toBe(r.content);
  });
}

describe('DNSSEC records as signers print them', () => {
  it.each(['nsec', 'nsec3', 'nsec3-optout'] as const)('dnssec-signzone with %s: every record reads, prints back and survives the wire', (denial) => {
    const signed = signZone('example.test', SOA, denial);
    const types = new Set(readSigned(signed.text, 'example.test').records.map((r) => r.record_type));
    expect([...types].filter((t) => type(t).transferOnly).sort()).toEqual(denial === 'nsec' ? ['DNSKEY', 'NSEC', 'RRSIG'] : ['DNSKEY', 'NSEC3', 'NSEC3PARAM', 'RRSIG']);
    roundTrips(signed.text, 'example.test');
    fs.rmSync(signed.dir, { recursive: true, force: true });
  });

  it('ldns-signzone with NSEC3 (lower-case hashes, its own layout): the same content as read back', () => {
    const signed = signZone('ldns.test', SOA, 'nsec');
    const dir = signed.dir;
    const key = execFileSync('ldns-keygen', ['-a', 'ECDSAP256SHA256', '-k', 'ldns.test'], { cwd: dir, encoding: 'utf8' }).trim();
    execFileSync('ldns-signzone', ['-n', '-s', '', '-t', '0', '-f', 'ldns.signed', path.join(dir, 'zone.db'), key], { cwd: dir });
    const flat = execFileSync('ldns-read-zone', ['-z', path.join(dir, 'ldns.signed')], { encoding: 'utf8' });
    const { records } = readSigned(flat, 'ldns.test');
    expect(records.some((r) => r.record_type === 'NSEC3' && / [0-9A-V]{32} /.test(r.content))).toBe(true);
    for (const r of records) expect(type(r.record_type).fromWire(type(r.record_type).toWire(r.content))).toBe(r.content);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('DNSSEC record content', () => {
  it.each([
    ['NSEC', '\\000.Www.Example.COM. A RRSIG NSEC', '\\000.www.example.com A RRSIG NSEC'],
    ['NSEC', '*.wild.example.com. TYPE65534 TXT A', '*.wild.example.com A TXT TYPE65534'],
    ['NSEC', 'example.com.', 'example.com'],
    ['NSEC3', '1 0 0 - 2vptu5timamqttgl4luu9kg21e0aor3s', '1 0 0 - 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S'],
    ['NSEC3', '1 1 10 aabbccdd 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S NS DS RRSIG', '1 1 10 AABBCCDD 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S NS DS RRSIG'],
    ['NSEC3PARAM', '1 0 0 -', '1 0 0 -'],
    ['RRSIG', 'A 13 2 300 1798675200 1796083200 12345 Example.COM. AAAA BBBB', 'A 13 2 300 20261231000000 20261201000000 12345 example.com AAAABBBB'],
    ['DNSKEY', '257 3 ECDSAP256SHA256 AwEA AaHh', '257 3 13 AwEAAaHh'],
  ])('%s %s reads as %s', (t, input, content) => {
    expect(type(t).normalize(input)).toBe(content);
    expect(type(t).fromWire(type(t).toWire(content))).toBe(content);
  });

  it.each([
    ['NSEC3', '1 0 0 xyz 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S', 'NSEC3: salt must be hex, or "-" for none'],
    ['NSEC3', '1 0 0 - not-base32', 'NSEC3: next hashed owner must be base32hex (RFC 4648 §7)'],
    ['NSEC', 'next.example.com. A BOGUS', 'NSEC: types has BOGUS, which is not a type such as A or TYPE65534'],
    ['RRSIG', 'A 13 2 300 20261340000000 20261128000000 1 example.com. AAAA', 'RRSIG: expiration is not a real date and time'],
    ['RRSIG', 'WHAT 13 2 300 20261228000000 20261128000000 1 example.com. AAAA', 'RRSIG: type covered must be a type such as A or TYPE65534'],
  ])('%s %s is refused: %s', (t, input, message) => {
    expect(() => type(t).normalize(input)).toThrow(message);
  });

  it('an NSEC3 at an empty non-terminal has no types, and its wire form no bitmap', () => {
    const def = type('NSEC3');
    expect(def.normalize('1 0 0 - 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S')).toBe('1 0 0 - 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S');
    expect(def.toWire('1 0 0 - 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S').length).toBe(5 + 1 + 20);
  });
});

describe('transfer-only types', () => {
  it('are known by name and code for serving, but are not among the types a user writes', () => {
    for (const t of TRANSFER_ONLY_TYPES) {
      expect(RECORD_TYPE_BY_CODE.get(t.code)).toBe(t);
      expect(WRITABLE_TYPES).not.toContain(t);
      expect(transferOnlyRefusal(t.type)).toMatch(`${t.type} records come only from a signed primary by zone transfer`);
    }
    expect(transferOnlyRefusal('A')).toBeNull();
  });
});
