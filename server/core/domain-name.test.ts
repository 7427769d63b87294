import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeRecordName, normalizeTargetName, normalizeZoneName, toFqdn } from './domain-name';
import { RuleError } from './errors';

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
const zone = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'net', 'org', 'example')).map(([ls, tld]) => [...ls, tld].join('.'));

describe('zone names', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['  example.com ', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['MÜNCHEN.de', 'xn--mnchen-3ya.de'],
    ['2.0.192.in-addr.arpa', '2.0.192.in-addr.arpa'],
  ])('normalizes %s to %s', (input, expected) => {
    expect(normalizeZoneName(input)).toBe(expected);
  });

  it.each([
    ['', /empty/],
    ['com', /two labels/],
    ['exa mple.com', /may contain only/],
    ['-bad.com', /hyphen/],
    ['a..com', /empty labels/],
    [`${'a'.repeat(64)}.com`, /longer than 63/],
    [`${'abcdefghi.'.repeat(26)}com`, /at most 253/],
    ['*.example.com', /only as the whole leftmost label/],
    ['_dmarc.example.com', /may contain only/],
    ['example.123', /all-numeric/],
  ])('rejects %j', (input, message) => {
    expect(() => normalizeZoneName(input)).toThrow(message);
  });

  it('is idempotent and keeps names inside the length limits (property)', () => {
    fc.assert(
      fc.property(zone, fc.boolean(), fc.boolean(), (name, upper, dot) => {
        const input = `${upper ? name.toUpperCase() : name}${dot ? '.' : ''}`;
        const once = normalizeZoneName(input);
        expect(once).toBe(name);
        expect(normalizeZoneName(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(253);
      }),
    );
  });

  it('either normalizes arbitrary text to a valid name or throws a RuleError (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (input) => {
        try {
          const out = normalizeZoneName(input);
          expect(out).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
          expect(out.length).toBeLessThanOrEqual(253);
        } catch (e) {
          expect(e).toBeInstanceOf(RuleError);
        }
      }),
    );
  });
});

describe('record names', () => {
  it.each([
    ['', '@'],
    ['@', '@'],
    ['WWW', 'www'],
    ['_dmarc', '_dmarc'],
    ['*.dev', '*.dev'],
    ['*', '*'],
    ['www.example.com.', 'www'],
    ['example.com.', '@'],
    ['a.b', 'a.b'],
  ])('in example.com, %j is %j', (input, expected) => {
    expect(normalizeRecordName(input, 'example.com')).toBe(expected);
  });

  it.each([
    ['www.other.org.', /not inside the zone/],
    ['a.*', /leftmost/],
    ['foo bar', /may contain only/],
    [`${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}`, /longer than 253/],
  ])('rejects %j', (input, message) => {
    expect(() => normalizeRecordName(input, 'example.com')).toThrow(message);
  });

  it('joins to an fqdn that lies in the zone (property)', () => {
    fc.assert(
      fc.property(zone, fc.array(label, { minLength: 0, maxLength: 3 }), (z, labels) => {
        const rel = normalizeRecordName(labels.join('.'), z);
        const fqdn = toFqdn(rel, z);
        expect(fqdn === z || fqdn.endsWith(`.${z}`)).toBe(true);
        expect(normalizeRecordName(`${fqdn}.`, z)).toBe(rel);
      }),
    );
  });
});

describe('target names', () => {
  it('strips the trailing dot and lower-cases', () => {
    expect(normalizeTargetName('Mail.Example.COM.')).toBe('mail.example.com');
  });
  it('admits the root only where allowed', () => {
    expect(normalizeTargetName('.', true)).toBe('.');
    expect(() => normalizeTargetName('.')).toThrow(/root/);
  });
});
