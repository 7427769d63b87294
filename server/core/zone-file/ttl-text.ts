/**
 * TTLs and SOA timers as master files write them: seconds, or BIND's units
 * (`1h30m`, `2d`, `1W`: s, m, h, d, w, case-insensitive), at most 2^31 − 1 (RFC 2181 §8).
 */
import { RuleError } from '../errors';
import { MAX_TTL } from '../ttl';

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** Whether a token is meant as a TTL (it starts with a digit), as BIND decides. */
export const looksLikeTtl = (t: string): boolean => t.charCodeAt(0) >= 0x30 && t.charCodeAt(0) <= 0x39;

/** Seconds of a TTL written with or without units; throws RuleError naming `what`. */
export function parseTtlText(t: string, what = 'TTL', max = MAX_TTL): number {
  let total: number;
  if (/^[0-9]{1,10}$/.test(t)) total = Number(t);
  else if (/^([0-9]{1,10}[smhdwSMHDW])+$/.test(t)) {
    total = 0;
    for (const m of t.matchAll(/([0-9]+)([a-zA-Z])/g)) total += Number(m[1]) * UNIT[m[2]!.toLowerCase()]!;
  } else throw new RuleError(`${what} "${t}" must be a number of seconds, or with units like 1h30m`);
  if (total > max) throw new RuleError(`${what} must be at most ${max} seconds`);
  return total;
}
