import { describe, expect, it } from 'vitest';
import { RuleError } from './errors';
import { allows, allowsWholeZone, isRestricted, nameMatches, normalizeScope, normalizeScopeName, scopeFromJson, scopeToJson, type RunRule } from './scope';

/** Collects failures as FieldCheck does. */
function collect() {
  const errors: Record<string, string> = {};
  const run: RunRule = (field, rule) => {
    try {
      return rule();
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      errors[field] ??= e.message;
      return undefined;
    }
  };
  return { errors, run };
}

describe('scope names', () => {
  it.each([
    ['_acme-challenge.*', '_acme-challenge.www', true],
    ['_acme-challenge.*', '_acme-challenge.a.b', true],
    ['_acme-challenge.*', '_acme-challenge', false],
    ['_acme-challenge.*', 'x._acme-challenge.www', false],
    ['_acme-challenge', '_acme-challenge', true],
    ['_acme-challenge', '_acme-challenge.www', false],
    ['*.dev', 'a.dev', true],
    ['*.dev', 'a.b.dev', true],
    ['*.dev', 'dev', false],
    ['*.dev', '*.dev', true],
    ['*', 'anything.at.all', true],
    ['*', '@', false],
    ['@', '@', true],
    ['www', 'www2', false],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(nameMatches(pattern, name)).toBe(expected);
  });

  it('normalizes and refuses what cannot be a relative name pattern', () => {
    expect(normalizeScopeName(' _ACME-Challenge.* ')).toBe('_acme-challenge.*');
    expect(normalizeScopeName('')).toBe('@');
    expect(() => normalizeScopeName('a.*.b')).toThrow(/first or last label/);
    expect(() => normalizeScopeName('*.a.*')).toThrow(/one end/);
    expect(() => normalizeScopeName('www.example.com.')).toThrow(/relative/);
    expect(() => normalizeScopeName('a..b')).toThrow(/empty labels/);
    expect(() => normalizeScopeName('sp ace')).toThrow(/letters, digits/);
  });
});

describe('normalizeScope', () => {
  it('normalizes every part, drops duplicates and empty parts', () => {
    const { errors, run } = collect();
    const scope = normalizeScope(
      { zones: ['Example.COM.', 'example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['txt'], allowed_ips: ['192.0.2.0/24', '2001:DB8::/32'], read_only: false },
      run,
    );
    expect(errors).toEqual({});
    expect(scope).toEqual({ zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'], allowed_ips: ['192.0.2.0/24', '2001:db8::/32'] });
    expect(normalizeScope({ zones: [], read_only: true }, run)).toEqual({ read_only: true });
  });

  it('names every bad entry by its position', () => {
    const { errors, run } = collect();
    normalizeScope({ zones: ['ok.example', 'no_zone'], types: ['A', 'BOGUS'], allowed_ips: ['10.0.0.1/8'], names: ['a.*.b'] }, run);
    expect(Object.keys(errors).sort()).toEqual(['scope.allowed_ips.0', 'scope.names.0', 'scope.types.1', 'scope.zones.1']);
    expect(errors['scope.allowed_ips.0']).toMatch(/host bits set/);
  });
});

describe('allows', () => {
  const acme = { zones: ['example.com'], names: ['_acme-challenge', '_acme-challenge.*'], types: ['TXT'] };

  it('lets an empty scope do anything', () => {
    expect(allows({}, { zone: 'x.test', name: 'www', type: 'A', write: true, ip: '203.0.113.9' })).toBe(true);
    expect(isRestricted({})).toBe(false);
    expect(isRestricted({ zones: [] })).toBe(false);
  });

  it('checks each given part: the ACME case', () => {
    expect(allows(acme, { zone: 'example.com', name: '_acme-challenge.www', type: 'TXT', write: true })).toBe(true);
    expect(allows(acme, { zone: 'example.com', name: 'www', type: 'TXT', write: true })).toBe(false);
    expect(allows(acme, { zone: 'example.com', name: '_acme-challenge', type: 'A', write: true })).toBe(false);
    expect(allows(acme, { zone: 'example.org', name: '_acme-challenge', type: 'TXT', write: true })).toBe(false);
    expect(allowsWholeZone(acme, 'example.com')).toBe(false);
    expect(allowsWholeZone({ zones: ['example.com'], read_only: true }, 'example.com')).toBe(true);
  });

  it('refuses writes to a read-only scope and addresses outside allowed_ips (IPv4-mapped too)', () => {
    expect(allows({ read_only: true }, { write: true })).toBe(false);
    expect(allows({ read_only: true }, { write: false })).toBe(true);
    const nets = { allowed_ips: ['192.0.2.0/24', '2001:db8::/32'] };
    expect(allows(nets, { ip: '192.0.2.7' })).toBe(true);
    expect(allows(nets, { ip: '::ffff:192.0.2.7' })).toBe(true);
    expect(allows(nets, { ip: '2001:db8::1' })).toBe(true);
    expect(allows(nets, { ip: '198.51.100.1' })).toBe(false);
    expect(allows(nets, { ip: '' })).toBe(false);
  });

  it('round-trips through JSON, and a corrupt stored scope throws rather than opening up', () => {
    expect(scopeFromJson(scopeToJson(acme))).toEqual(acme);
    expect(scopeFromJson(null)).toEqual({});
    expect(() => scopeFromJson('[]')).toThrow();
    expect(() => scopeFromJson('{')).toThrow();
  });
});
