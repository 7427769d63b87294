/**
 * Key rollovers as steps (RFC 7583 timelines, adapted to online signing), each one change set:
 *
 * - **zsk** (pre-publication, RFC 7583 §3.2.1): the new ZSK is published without signing; once every
 *   cache can hold the new DNSKEY set (DNSKEY TTL + propagation) it signs and the old one retires
 *   (still published, so answers cached with its signatures still validate); once those answers have
 *   expired (the zone's largest TTL + propagation) the old key is removed.
 * - **csk** and **ksk** (double signature in the zone, double DS at the parent, RFC 7583 §3.3): the new
 *   key is published and signs beside the old (a CSK every RRset, a KSK the key sets); once caches hold
 *   that, CDS/CDNSKEY list both keys and the step waits for the parent to serve the new DS, seen twice a
 *   DS TTL apart; only then is the old key removed and CDS lists the new key alone.
 * - **algorithm** (RFC 6781 §4.1.4; also CSK ↔ KSK+ZSK): the new keys sign every RRset before they are
 *   published (RFC 4035 §2.2 wants each RRset signed by every algorithm in the DNSKEY set), then are
 *   published, then the parent's DS is switched as above, then the old keys leave the DNSKEY set but keep
 *   signing until the caches have dropped the DNSKEY sets that held them, and only then stop.
 *
 * A key that is neither published nor signing (`removed`) is deleted at the driver's next look.
 *
 * Every wait is derived from the zone: its DNSKEY TTL, its largest TTL, the parent's DS TTL, plus the
 * propagation delay. Nothing here reads a clock or a store: the driver (rollovers.ts) feeds it.
 */
import { DNSSEC_ALGORITHMS, type DnssecPolicy } from '../../core/dnssec-policy';
import type { DnssecPublicKey, KeyFlags } from '../../store/types';
import type { KeyStep } from '../changes/change-sets/types';
import { forParent, rolesOf, type WantedKey } from './key-setup';

export const ROLLOVER_KINDS = ['zsk', 'ksk', 'csk', 'algorithm'] as const;
export type RolloverKind = (typeof ROLLOVER_KINDS)[number];

/** The steps of each kind, in order; the rollover is over after the last one's wait. */
export const STEPS = {
  zsk: ['publish', 'switch', 'remove'],
  ksk: ['publish', 'submit', 'remove'],
  csk: ['publish', 'submit', 'remove'],
  algorithm: ['sign', 'publish', 'submit', 'withdraw', 'remove'],
} as const satisfies Record<RolloverKind, readonly string[]>;
export type StepName = (typeof STEPS)[RolloverKind][number];

/** The rollover in progress, as the zone row holds it (JSON). */
export interface Rollover {
  kind: RolloverKind;
  step: StepName;
  started_at: string;
  step_at: string;
  /** The keys brought in and the keys going away. */
  new_keys: number[];
  old_keys: number[];
}

/** What the waits are made of, in seconds. */
export interface Timing {
  /** The TTL of the DNSKEY set (and CDS). */
  dnskeyTtl: number;
  /** The longest any answer of the zone may be cached: its largest TTL, its negative TTL, the DNSKEY TTL. */
  maxTtl: number;
  /** DNSSEC_PROPAGATION_S, plus SOA expire when secondaries serve the zone (one may lag that long). */
  propagation: number;
}

export type Wait = { kind: 'time'; seconds: number } | { kind: 'parent' };

export function readRollover(text: string | null | undefined): Rollover | null {
  if (!text) return null;
  try {
    const r = JSON.parse(text) as Rollover;
    return ROLLOVER_KINDS.includes(r.kind) && (STEPS[r.kind] as readonly string[]).includes(r.step) ? r : null;
  } catch {
    return null;
  }
}

/** What the step waits for once made: a time after it, or the parent. */
export function waitAfter(r: Pick<Rollover, 'kind' | 'step'>, t: Timing): Wait {
  const after = (seconds: number): Wait => ({ kind: 'time', seconds: seconds + t.propagation });
  switch (r.step) {
    case 'sign':
      return after(Math.max(t.maxTtl, t.dnskeyTtl));
    case 'publish':
      // A CSK signs every RRset with the new key from here: old answers must have left the caches too.
      return after(r.kind === 'csk' ? Math.max(t.maxTtl, t.dnskeyTtl) : t.dnskeyTtl);
    case 'switch':
      return after(t.maxTtl);
    case 'submit':
      return { kind: 'parent' };
    case 'withdraw':
      return after(t.dnskeyTtl);
    case 'remove':
      // The old keys are out of the DNSKEY set and sign nothing any more: deleting them changes no answer.
      return { kind: 'time', seconds: 0 };
  }
}

const flags = (state: KeyFlags['state'], published: boolean, signing: boolean, in_cds: boolean): KeyFlags => ({ state, published, signing, in_cds });
const tags = (keys: readonly DnssecPublicKey[]) => keys.map((k) => `${k.role.toUpperCase()} ${k.key_tag}`).join(', ');

/** The keys a rollover of `kind` replaces: the live ones of the role it rolls (all of them for an algorithm rollover). */
export function keysToReplace(kind: RolloverKind, keys: readonly DnssecPublicKey[]): DnssecPublicKey[] {
  const live = keys.filter((k) => k.state !== 'removed');
  return kind === 'algorithm' ? live : live.filter((k) => k.role === kind);
}

/** The first step of a rollover: the new keys made (published or signing ahead, as the kind says). */
export function startStep(kind: RolloverKind, keys: readonly DnssecPublicKey[], policy: DnssecPolicy, at: string): KeyStep {
  const old = keysToReplace(kind, keys);
  const algorithm = DNSSEC_ALGORITHMS[policy.algorithm];
  const make: WantedKey[] =
    kind === 'algorithm'
      ? rolesOf(policy).map((role) => ({ algorithm, role, flags: flags('generated', false, true, false) }))
      : [{ algorithm: old[0]?.algorithm ?? algorithm, role: kind, flags: flags('published', true, kind !== 'zsk', false) }];
  const step: StepName = kind === 'algorithm' ? 'sign' : 'publish';
  const what = kind === 'algorithm' ? `new ${policy.algorithm} keys sign beside ${tags(old)} before they are published` : `a new ${kind.toUpperCase()} is published beside ${tags(old)}`;
  return {
    make,
    change: [],
    drop: [],
    rollover: (made) => JSON.stringify({ kind, step, started_at: at, step_at: at, new_keys: made, old_keys: old.map((k) => k.id) } satisfies Rollover),
    summary: `${kind === 'algorithm' ? 'algorithm' : kind.toUpperCase()} rollover started: ${what}`,
  };
}

/** The step after the current one, or the end of the rollover (the old keys deleted). */
export function nextStep(r: Rollover, keys: readonly DnssecPublicKey[], at: string): KeyStep {
  const steps = STEPS[r.kind] as readonly StepName[];
  const next = steps[steps.indexOf(r.step) + 1];
  const fresh = keys.filter((k) => r.new_keys.includes(k.id));
  const old = keys.filter((k) => r.old_keys.includes(k.id));
  const moved = (to: DnssecPublicKey[], f: (k: DnssecPublicKey) => KeyFlags) => to.map((k) => ({ id: k.id, flags: f(k) }));
  const state = (rollover: Rollover | null) => () => (rollover ? JSON.stringify(rollover) : null);
  const base = { make: [], drop: [] as number[], rollover: state(next ? { ...r, step: next, step_at: at } : null) };
  switch (next) {
    case undefined:
      return { ...base, change: [], drop: old.map((k) => k.id), summary: `${label(r)} finished: ${tags(old)} deleted, ${tags(fresh)} in use` };
    case 'publish':
      return { ...base, change: moved(fresh, () => flags('published', true, true, false)), summary: `${label(r)}: ${tags(fresh)} published in the DNSKEY set` };
    case 'switch':
      return {
        ...base,
        change: [...moved(fresh, () => flags('active', true, true, false)), ...moved(old, () => flags('retired', true, false, false))],
        summary: `${label(r)}: ${tags(fresh)} signs now; ${tags(old)} retired, still published for answers cached with its signatures`,
      };
    case 'submit':
      return {
        ...base,
        change: [...moved(fresh, (k) => flags('ready', true, true, forParent(k.role))), ...moved(old, (k) => ({ ...flags('active', true, true, forParent(k.role)) }))],
        summary: `${label(r)}: CDS and CDNSKEY list ${tags(fresh.filter((k) => forParent(k.role)))} beside ${tags(old.filter((k) => forParent(k.role)))}; waiting for the parent's DS`,
      };
    case 'withdraw':
      return {
        ...base,
        change: [...moved(fresh, (k) => flags('active', true, true, forParent(k.role))), ...moved(old, () => flags('retired', false, true, false))],
        summary: `${label(r)}: the parent serves the new DS; ${tags(old)} leave the DNSKEY set and keep signing until caches drop it`,
      };
    case 'remove':
      return {
        ...base,
        change: [...moved(fresh, (k) => flags('active', true, true, forParent(k.role))), ...moved(old, () => flags('removed', false, false, false))],
        summary: r.kind === 'zsk' ? `${label(r)}: ${tags(old)} removed from the DNSKEY set` : `${label(r)}: ${tags(old)} removed; ${tags(fresh)} alone signs and is listed for the parent`,
      };
    default:
      throw new Error(`${next} cannot follow ${r.step}`);
  }
}

export const label = (r: Pick<Rollover, 'kind'>): string => (r.kind === 'algorithm' ? 'algorithm rollover' : `${r.kind.toUpperCase()} rollover`);

/** The step in progress in plain words: what holds now and what comes next. */
export function describe(r: Rollover, keys: readonly DnssecPublicKey[]): string {
  const fresh = tags(keys.filter((k) => r.new_keys.includes(k.id)));
  const old = tags(keys.filter((k) => r.old_keys.includes(k.id)));
  const words: Record<StepName, string> = {
    sign: `The new keys (${fresh}) sign every answer beside ${old} but are not published yet; once answers signed only with the old algorithm have left resolvers' caches, they are published.`,
    publish:
      r.kind === 'zsk'
        ? `${fresh} is published beside ${old} without signing yet; once resolvers can hold the new DNSKEY set, it takes over signing.`
        : `${fresh} is published and signs beside ${old}; once resolvers can hold the new DNSKEY set, the parent is asked for its DS.`,
    switch: `${fresh} signs; ${old} stays published until answers signed with it have expired from caches, then it is removed.`,
    submit: `CDS and CDNSKEY ask the parent for the DS of ${fresh}; ${old} is removed only after the parent serves it, seen twice a DS TTL apart. Until then both keys validate, so nothing breaks if the parent is slow.`,
    withdraw: `The parent serves the new DS; ${old} has left the DNSKEY set and keeps signing until caches have dropped the old DNSKEY set.`,
    remove: `${old} is no longer published and signs nothing; it is deleted now.`,
  };
  return words[r.step];
}
