import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextSerial, serialAfter, serialAtOrAfter, SOA_DEFAULTS, soaErrors } from './soa';

describe('SOA timers', () => {
  it('accepts the defaults', () => {
    expect(soaErrors(SOA_DEFAULTS)).toEqual({});
  });

  it('names every field out of bounds', () => {
    expect(soaErrors({ refresh_interval: 100, retry_interval: 99999, expire_interval: 1, minimum_ttl: 1.5 })).toEqual({
      refresh_interval: 'must be a whole number of seconds from 600 to 86400',
      retry_interval: 'must be a whole number of seconds from 600 to 3600',
      expire_interval: 'must be a whole number of seconds from 86400 to 2419200',
      minimum_ttl: 'must be a whole number of seconds from 60 to 86400',
    });
  });

  it('blames the field the user changed when two fields disagree', () => {
    const t = { ...SOA_DEFAULTS, refresh_interval: 1200, retry_interval: 3600 };
    expect(soaErrors(t, new Set(['refresh_interval']))).toEqual({ refresh_interval: 'must not be less than retry_interval (3600)' });
    expect(soaErrors(t, new Set(['retry_interval']))).toEqual({ retry_interval: 'must not be greater than refresh_interval (1200)' });
  });
});

describe('serials', () => {
  const day = new Date('2026-11-21T12:00:00Z');
  it('starts at today with nn = 00', () => {
    expect(nextSerial(0, day)).toBe(2026112100);
  });
  it('counts up within a day and past 99', () => {
    expect(nextSerial(2026112100, day)).toBe(2026112101);
    expect(nextSerial(2026112199, day)).toBe(2026112200);
  });
  it('jumps to a later date and never goes back', () => {
    expect(nextSerial(2026112005, day)).toBe(2026112100);
    expect(nextSerial(2027010100, day)).toBe(2027010101);
  });
});

describe('serial arithmetic (RFC 1982)', () => {
  const day = new Date('2026-11-26T12:00:00Z');
  it('wraps past 4294967295 instead of leaving 32 bits, and jumps to the date only as a valid addition', () => {
    // Today's date is less than 2^31 ahead of 4294967295 in the circle: a valid addition, taken.
    expect(nextSerial(4294967295, day)).toBe(2026112600);
    // In 2200 the date (2200010100) is 2^31 or more past 0: the serial just wraps to 0, then counts.
    const later = new Date('2200-01-01T00:00:00Z');
    expect(nextSerial(4294967295, later)).toBe(0);
    expect(nextSerial(0, later)).toBe(1);
    expect(serialAfter(2026112600, 4294967295)).toBe(true);
    // Far ahead of the date (2^31 or more past it), the serial just counts on, wrapping.
    expect(nextSerial(3900000000, day)).toBe(3900000001);
    expect(nextSerial(5, day)).toBe(2026112600);
  });

  it('compares in a circle: a wrapped serial is after the one before the wrap', () => {
    expect(serialAfter(0, 4294967295)).toBe(true);
    expect(serialAfter(4294967295, 0)).toBe(false);
    expect(serialAtOrAfter(7, 7)).toBe(true);
    expect(serialAfter(2 ** 31, 0)).toBe(false); // undefined by RFC 1982: never "after"
  });

  it('every next serial is a 32-bit number after the current one, for any serial and day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.date({ min: new Date('2000-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }), (current, now) => {
        const next = nextSerial(current, now);
        expect(Number.isInteger(next) && next >= 0 && next < 2 ** 32).toBe(true);
        expect(serialAfter(next, current)).toBe(true);
      }),
    );
  });
});
