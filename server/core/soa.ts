/**
 * SOA timers and serials. Bounds follow common operator practice (RFC 1912 §2.2,
 * RIPE-203) tightened to what a NOTIFY-driven service needs; they are documented in
 * docs/api.md and shown in the editor.
 */
export interface SoaTimers {
  refresh_interval: number;
  retry_interval: number;
  expire_interval: number;
  minimum_ttl: number;
}

export type SoaField = keyof SoaTimers;

export const SOA_BOUNDS: Record<SoaField, { min: number; max: number; label: string }> = {
  refresh_interval: { min: 600, max: 86400, label: 'Refresh' },
  retry_interval: { min: 600, max: 3600, label: 'Retry' },
  expire_interval: { min: 86400, max: 2419200, label: 'Expire' },
  minimum_ttl: { min: 60, max: 86400, label: 'Minimum TTL' },
};

export const SOA_DEFAULTS: SoaTimers = {
  refresh_interval: 10800,
  retry_interval: 3600,
  expire_interval: 1209600,
  minimum_ttl: 3600,
};

export const SOA_FIELDS = Object.keys(SOA_BOUNDS) as SoaField[];

/**
 * Every rule broken by a complete set of timers, keyed by field; empty when valid.
 * `changed` names the fields the user just set: a rule between two fields is reported
 * on the one the user changed, so the message points at what they can fix.
 */
export function soaErrors(t: SoaTimers, changed: ReadonlySet<SoaField> = new Set(SOA_FIELDS)): Partial<Record<SoaField, string>> {
  const errors: Partial<Record<SoaField, string>> = {};
  for (const field of SOA_FIELDS) {
    const { min, max } = SOA_BOUNDS[field];
    const v = t[field];
    if (!Number.isInteger(v) || v < min || v > max) {
      errors[field] = `must be a whole number of seconds from ${min} to ${max}`;
    }
  }
  const pair = (low: SoaField, high: SoaField) => {
    if (errors[low] || errors[high] || t[low] <= t[high]) return;
    if (changed.has(low) || !changed.has(high)) errors[low] = `must not be greater than ${high} (${t[high]})`;
    else errors[high] = `must not be less than ${low} (${t[low]})`;
  };
  pair('retry_interval', 'refresh_interval');
  pair('refresh_interval', 'expire_interval');
  return errors;
}

/** Serial numbers are 32-bit and compared in a circle (RFC 1982). */
const SERIAL_SPACE = 2 ** 32;
const SERIAL_HALF = 2 ** 31;

/** RFC 1982 §3.2: whether serial `a` is after `b` (undefined when they are exactly 2³¹ apart, here false). */
export function serialAfter(a: number, b: number): boolean {
  const d = (a - b + SERIAL_SPACE) % SERIAL_SPACE;
  return d > 0 && d < SERIAL_HALF;
}

/** Whether `a` is `b` or after it (RFC 1982). */
export const serialAtOrAfter = (a: number, b: number): boolean => a === b || serialAfter(a, b);

/**
 * The next serial in YYYYMMDDnn style: today's date with nn = 00, or one more than the current
 * serial when that is already at or past today. Always strictly after the current one in RFC
 * 1982's sense: past 4294967295 it wraps to 0 (an addition of 1), and a jump to today's date is
 * taken only when it is itself a valid addition (less than 2³¹ ahead), so secondaries always see
 * a newer serial and keep transferring.
 */
export function nextSerial(current: number, now: Date = new Date()): number {
  const today = (now.getUTCFullYear() * 10000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate()) * 100;
  const next = (current + 1) % SERIAL_SPACE;
  return serialAfter(today, next) ? today : next;
}
