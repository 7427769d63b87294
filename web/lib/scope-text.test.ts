import { describe, expect, it } from 'vitest';
import { describeScope, EMPTY_SCOPE, scopeError, scopeOf } from './scope-text';

describe('scope text', () => {
  it('sends only the parts filled in, lists split on commas or spaces', () => {
    expect(scopeOf(EMPTY_SCOPE)).toEqual({});
    expect(scopeOf({ zones: 'example.com, example.org', names: '_acme-challenge _acme-challenge.*', types: 'TXT', allowedIps: '', readOnly: true })).toEqual({
      zones: ['example.com', 'example.org'],
      names: ['_acme-challenge', '_acme-challenge.*'],
      types: ['TXT'],
      read_only: true,
    });
  });

  it("shows the server's message for an entry on its list, naming the entry", () => {
    const sent = { zones: ['ok.example', 'bad'] };
    expect(scopeError({ 'scope.zones.1': 'must have at least two labels' }, 'zones', sent)).toBe('“bad”: must have at least two labels');
    expect(scopeError({ 'scope.zones': 'must list at most 100 entries' }, 'zones', sent)).toBe('must list at most 100 entries');
    expect(scopeError({ name: 'is already taken' }, 'zones', sent)).toBeUndefined();
  });

  it('describes a scope one part per line', () => {
    expect(describeScope({})).toEqual([]);
    expect(describeScope({ zones: ['example.com'], types: ['TXT'], read_only: true })).toEqual(['Zones: example.com', 'Types: TXT', 'Read-only']);
  });
});
