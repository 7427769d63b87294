/** Record TTLs: digits only, 0..2^31-1 (RFC 2181 §8). */
import { RuleError } from './errors';

export const MAX_TTL = 2147483647;

export function parseTtl(text: string): number {
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) > MAX_TTL) {
    throw new RuleError(`must be a whole number of seconds between 0 and ${MAX_TTL}`);
  }
  return Number(text);
}
