import { describe, expect, it } from 'vitest';
import { expiryState, parseExpiryDays } from './token-expiry';

const now = Date.parse('2026-03-01T12:00:00Z');
const inDays = (d: number) => new Date(now + d * 86_400_000).toISOString();

describe('expiryState', () => {
  it('tells never, expired, soon and later apart', () => {
    expect(expiryState(null, now)).toBe('never');
    expect(expiryState(inDays(-1), now)).toBe('expired');
    expect(expiryState(new Date(now).toISOString(), now)).toBe('expired');
    expect(expiryState(inDays(3), now)).toBe('soon');
    expect(expiryState(inDays(30), now)).toBe('later');
  });
});

describe('parseExpiryDays', () => {
  it('reads blank as no expiry and whole days in range as days', () => {
    expect(parseExpiryDays('  ')).toEqual({});
    expect(parseExpiryDays(' 90 ')).toEqual({ days: 90 });
    expect(parseExpiryDays('3650')).toEqual({ days: 3650 });
  });

  it('gives the same messages as the API for what it would reject', () => {
    expect(parseExpiryDays('0')).toEqual({ error: 'must be between 1 and 3650 days' });
    expect(parseExpiryDays('3651')).toEqual({ error: 'must be between 1 and 3650 days' });
    expect(parseExpiryDays('1.5')).toEqual({ error: 'must be a whole number of days' });
    expect(parseExpiryDays('-3')).toEqual({ error: 'must be a whole number of days' });
  });
});
