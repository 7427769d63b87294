import { describe, expect, it } from 'vitest';
import { nextSerial, SOA_DEFAULTS, soaErrors } from './soa';

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
