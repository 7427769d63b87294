/**
 * A zone's DNSSEC policy: the algorithm its keys use, one combined signing key (CSK) or a key-signing
 * key with a zone-signing key (KSK+ZSK), how long each key lives before it is rolled, and how
 * existence is denied. Stored as JSON text on the zone (null: the defaults), read here; the API
 * judges a client's policy with the same bounds.
 */

/** The algorithms keys are made with (RFC 8624 says MUST or RECOMMENDED to sign with), by name and number. */
export const DNSSEC_ALGORITHMS = { ecdsap256sha256: 13, ecdsap384sha384: 14, ed25519: 15 } as const;
export type AlgorithmName = keyof typeof DNSSEC_ALGORITHMS;
export const ALGORITHM_NAMES = Object.keys(DNSSEC_ALGORITHMS) as AlgorithmName[];

export const KEY_SETUPS = ['csk', 'ksk-zsk'] as const;
export type KeySetup = (typeof KEY_SETUPS)[number];

export const DENIALS = ['compact', 'nsec3'] as const;
export type Denial = (typeof DENIALS)[number];

export interface DnssecPolicy {
  algorithm: AlgorithmName;
  keys: KeySetup;
  /** Days a ZSK signs before it is rolled (KSK+ZSK only). */
  zsk_lifetime_days: number;
  /** Days a KSK or CSK lives before it is rolled; null: only when asked (its rollover involves the parent). */
  ksk_lifetime_days: number | null;
  denial: Denial;
}

/** What zones use until their owner says otherwise: what every signed zone did before policies. */
export const DEFAULT_POLICY: DnssecPolicy = { algorithm: 'ecdsap256sha256', keys: 'csk', zsk_lifetime_days: 90, ksk_lifetime_days: null, denial: 'compact' };

/**
 * Bounds of a lifetime in days. A day at least: a rollover with hour-long TTLs takes hours, and a key
 * must outlive its own rollover; ten years at most, beyond which "never" (null, KSK/CSK) says it better.
 */
export const MIN_LIFETIME_DAYS = 1;
export const MAX_LIFETIME_DAYS = 3650;

/**
 * The TTL of a signed zone's DNSKEY set (and of CDS and CDNSKEY): the zone's SOA TTL, at most an hour,
 * as Knot's default. Rollovers wait for it between steps; an hour keeps them short without making
 * resolvers refetch keys often, and a zone with short TTLs rolls its keys as quickly.
 */
export const DNSKEY_TTL = 3600;
export const dnskeyTtl = (soaTtl: number): number => Math.min(DNSKEY_TTL, soaTtl);

export function algorithmName(n: number): AlgorithmName | null {
  return ALGORITHM_NAMES.find((a) => DNSSEC_ALGORITHMS[a] === n) ?? null;
}

/** The zone's policy from its stored text; anything unreadable or missing falls back to the default, field by field. */
export function readPolicy(text: string | null | undefined): DnssecPolicy {
  if (!text) return DEFAULT_POLICY;
  let raw: Partial<DnssecPolicy>;
  try {
    raw = JSON.parse(text) as Partial<DnssecPolicy>;
  } catch {
    return DEFAULT_POLICY;
  }
  const lifetime = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= MIN_LIFETIME_DAYS && v <= MAX_LIFETIME_DAYS;
  return {
    algorithm: ALGORITHM_NAMES.includes(raw.algorithm as AlgorithmName) ? raw.algorithm! : DEFAULT_POLICY.algorithm,
    keys: KEY_SETUPS.includes(raw.keys as KeySetup) ? raw.keys! : DEFAULT_POLICY.keys,
    zsk_lifetime_days: lifetime(raw.zsk_lifetime_days) ? raw.zsk_lifetime_days! : DEFAULT_POLICY.zsk_lifetime_days,
    ksk_lifetime_days: lifetime(raw.ksk_lifetime_days) ? raw.ksk_lifetime_days! : null,
    denial: DENIALS.includes(raw.denial as Denial) ? raw.denial! : DEFAULT_POLICY.denial,
  };
}

/** The stored text of a policy, fields in one order, so that equal policies are equal text. */
export function policyText(p: DnssecPolicy): string {
  return JSON.stringify({ algorithm: p.algorithm, keys: p.keys, zsk_lifetime_days: p.zsk_lifetime_days, ksk_lifetime_days: p.ksk_lifetime_days, denial: p.denial });
}

/** Whether going from one policy to another needs new keys of another kind (an algorithm rollover, or CSK ↔ KSK+ZSK). */
export const keysDiffer = (a: DnssecPolicy, b: DnssecPolicy): boolean => a.algorithm !== b.algorithm || a.keys !== b.keys;
