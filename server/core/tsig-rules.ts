/**
 * What a TSIG key may be called and signed with (RFC 8945 §6), checked by the API and the CLI
 * and offered by the dashboard: names as BIND's `dig -y`, `nsupdate -y` and Knot spell them.
 */
import { normalizeTargetName } from './domain-name';
import { RuleError } from './errors';

export const TSIG_ALGORITHM_NAMES = ['hmac-sha256', 'hmac-sha1', 'hmac-sha224', 'hmac-sha384', 'hmac-sha512'] as const;
export type TsigAlgorithmName = (typeof TSIG_ALGORITHM_NAMES)[number];
export const DEFAULT_TSIG_ALGORITHM: TsigAlgorithmName = 'hmac-sha256';

/** `HMAC-SHA256` and the wire form `hmac-sha256.` both mean hmac-sha256. Throws RuleError. */
export function normalizeTsigAlgorithm(input: string): TsigAlgorithmName {
  const name = input.trim().toLowerCase().replace(/\.$/, '');
  const found = TSIG_ALGORITHM_NAMES.find((a) => a === name);
  if (!found) throw new RuleError(`must be one of ${TSIG_ALGORITHM_NAMES.join(', ')}`);
  return found;
}

/**
 * A key name: a domain name (RFC 8945 §4.2), one label or more, lower case, no trailing dot.
 * Letters, digits, hyphens and underscores, so it goes unquoted into `-y alg:name:secret`
 * and into Knot's and BIND's configuration. Throws RuleError.
 */
export function normalizeTsigKeyName(input: string): string {
  if (input.trim() === '' || input.trim() === '.') throw new RuleError('must not be empty');
  return normalizeTargetName(input);
}
