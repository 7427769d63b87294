/** The verdicts of the check from outside, beyond what the API test's servers produce: serial wrap-around (RFC 1982) and a DS for an unsigned zone. */
import { describe, expect, it } from 'vitest';
import { dsStatus, serialStatus } from './delegation-check';

describe('serialStatus', () => {
  it('compares serials in RFC 1982 arithmetic', () => {
    expect(serialStatus(2026112601, 2026112601)).toBe('in_sync');
    expect(serialStatus(2026112600, 2026112601)).toBe('behind');
    expect(serialStatus(2026112602, 2026112601)).toBe('ahead');
    // Past the wrap: 5 follows 4294967290.
    expect(serialStatus(4294967290, 5)).toBe('behind');
    expect(serialStatus(5, 4294967290)).toBe('ahead');
    expect(serialStatus(null, 5)).toBe('no_answer');
  });
});

describe('dsStatus', () => {
  const ours = ['12345 13 2 AB12'];
  it('needs one DS that matches a key; any DS for an unsigned zone breaks validation', () => {
    expect(dsStatus([], [])).toBe('unsigned');
    expect(dsStatus(['999 13 2 FF'], [])).toBe('mismatch');
    expect(dsStatus([], ours)).toBe('missing');
    expect(dsStatus(['12345 13 2 ab12'], ours)).toBe('match');
    // A stale DS beside the right one (a rollover) still validates.
    expect(dsStatus(['999 13 2 FF', '12345 13 2 AB12'], ours)).toBe('match');
    expect(dsStatus(['12345 13 2 AB13'], ours)).toBe('mismatch');
    expect(dsStatus(null, ours)).toBe('unknown');
  });
});
