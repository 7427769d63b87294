/**
 * Signatures a validator accepts: the RFC 6605 §6.1 vector verified over our canonical form,
 * our own signatures verified with node:crypto, their windows, and when they are reused.
 */
import { describe, expect, it } from 'vitest';
import { T, type RRset } from '../index/rrset';
import { canonicalRRset, compareNames } from './canonical';
import { rrsigPrefix, signedData, windowAt, ZoneSigner } from './sign';
import { parseRrsig, testKey, verifies } from '../../testing/test-keys';
import { verify } from 'node:crypto';
import { p256PublicKey } from '../../services/dnssec/key-material';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 15, 13, 30);

describe('RRSIG over the canonical form', () => {
  it('reproduces the input of the RFC 6605 §6.1 signature, which then verifies', () => {
    const set: RRset = { name: 'www.example.net', type: T.A, ttl: 3600, data: ['192.0.2.1'] };
    const key = Buffer.from('GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==', 'base64');
    const sig = Buffer.from('qx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SNruPFKG7tZoLBLlUzGGus7ZwmwWep666VCw==', 'base64');
    // 20100812100439 and 20100909100439 as seconds since 1970.
    const prefix = rrsigPrefix(set, { algorithm: 13, tag: 55648 }, { inception: 1281607479, expiration: 1284026679 }, 'example.net');
    const data = signedData(prefix, canonicalRRset(set, set.name, 3600));
    expect(verify('sha256', data, { key: p256PublicKey(key), dsaEncoding: 'ieee-p1363' }, sig)).toBe(true);
    // One octet off (another TTL) and it no longer does.
    const other = signedData(prefix, canonicalRRset(set, set.name, 3601));
    expect(verify('sha256', other, { key: p256PublicKey(key), dsaEncoding: 'ieee-p1363' }, sig)).toBe(false);
  });

  it('signs an RRset so that node:crypto verifies it with the DNSKEY, in any record order', () => {
    const { key, row } = testKey('example.com');
    const signer = new ZoneSigner('example.com', [key], () => NOW);
    const set: RRset = { name: 'www.example.com', type: T.A, ttl: 300, data: ['192.0.2.2', '192.0.2.1'] };
    const rrsig = signer.sign(set);
    expect(rrsig).toMatchObject({ name: 'www.example.com', type: T.RRSIG, ttl: 300 });
    const rdata = rrsig.data[0] as Buffer;
    const pub = Buffer.from(row.public_key, 'base64');
    expect(verifies(rdata, set, pub, 'example.com')).toBe(true);
    // RFC 4034 §6.3: the validator sorts the records, so the order they arrive in does not matter.
    expect(verifies(rdata, { ...set, data: ['192.0.2.1', '192.0.2.2'] }, pub, 'example.com')).toBe(true);
    expect(verifies(rdata, { ...set, data: ['192.0.2.1', '192.0.2.3'] }, pub, 'example.com')).toBe(false);
    expect(parseRrsig(rdata, 'example.com')).toMatchObject({ typeCovered: T.A, algorithm: 13, labels: 3, originalTtl: 300, keyTag: key.tag });
  });

  it('counts a wildcard owner without its "*" label (RFC 4034 §3.1.3)', () => {
    const { key, row } = testKey('example.com');
    const set: RRset = { name: '*.wild.example.com', type: T.TXT, ttl: 60, data: [[Buffer.from('hi')]] };
    const rdata = new ZoneSigner('example.com', [key], () => NOW).sign(set).data[0] as Buffer;
    expect(parseRrsig(rdata, 'example.com').labels).toBe(3);
    expect(verifies(rdata, set, Buffer.from(row.public_key, 'base64'), 'example.com')).toBe(true);
  });

  it('signs with every key during a rollover', () => {
    const a = testKey('example.com');
    const b = testKey('example.com');
    const set: RRset = { name: 'example.com', type: T.NS, ttl: 3600, data: ['ns1.zonedeck.test'] };
    const sigs = new ZoneSigner('example.com', [a.key, b.key], () => NOW).sign(set).data as Buffer[];
    expect(sigs.map((s) => parseRrsig(s, 'example.com').keyTag)).toEqual([a.key.tag, b.key.tag]);
    expect(verifies(sigs[0]!, set, Buffer.from(a.row.public_key, 'base64'), 'example.com')).toBe(true);
    expect(verifies(sigs[1]!, set, Buffer.from(b.row.public_key, 'base64'), 'example.com')).toBe(true);
  });
});

describe('signature windows and reuse', () => {
  it('starts three hours before the day began and ends 14 days after it', () => {
    const w = windowAt(NOW);
    const dayStart = Date.UTC(2026, 0, 15) / 1000;
    expect(w.inception).toBe(dayStart - 3 * 3600);
    expect(w.expiration).toBe(dayStart + 14 * 86400);
    expect(w.inception * 1000).toBeLessThan(NOW);
    expect(w.renewAt).toBe((dayStart + 86400) * 1000);
  });

  it('makes signatures a validator accepts when the signing clock is an hour ahead of it or behind, at any time of day', () => {
    for (let minute = 0; minute < 24 * 60; minute += 5) {
      const real = Date.UTC(2026, 0, 15) + minute * 60_000;
      for (const off of [3_600_000, -3_600_000]) {
        const w = windowAt(real + off);
        // A validator's own clock may be a little off too: a minute's margin either way.
        expect(w.inception * 1000).toBeLessThan(real - 60_000);
        expect(w.expiration * 1000).toBeGreaterThan(real + 60_000);
      }
    }
  });

  it('reuses a signature for the same RRset on the same day, and signs anew on the next day or for a changed set', () => {
    const { key } = testKey('example.com');
    let now = NOW;
    const signer = new ZoneSigner('example.com', [key], () => now);
    const set: RRset = { name: 'example.com', type: T.A, ttl: 300, data: ['192.0.2.1'] };
    const first = signer.sign(set);
    now += 3_600_000;
    expect(signer.sign(set)).toBe(first);
    // The zone replaces an RRset object when its data changes.
    const changed = { ...set, data: ['192.0.2.9'] };
    expect(signer.sign(changed)).not.toBe(first);
    now = NOW + DAY;
    const renewed = signer.sign(set);
    expect(renewed).not.toBe(first);
    const before = parseRrsig(first.data[0] as Buffer, 'example.com');
    const after = parseRrsig(renewed.data[0] as Buffer, 'example.com');
    expect(after.expiration - before.expiration).toBe(86400);
    // Every signature handed out has at least 13 days left.
    expect(after.expiration * 1000 - now).toBeGreaterThanOrEqual(13 * DAY);
  });
});

describe('canonical name order (RFC 4034 §6.1)', () => {
  it('sorts the RFC example', () => {
    const sorted = ['example', 'a.example', 'yljkjljk.a.example', 'z.a.example', 'zabc.a.example', 'z.example', '\\001.z.example', '*.z.example', '\\200.z.example'];
    const shuffled = [...sorted].reverse();
    expect(shuffled.sort(compareNames)).toEqual(sorted);
  });
});
