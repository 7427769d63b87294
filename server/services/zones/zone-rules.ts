/**
 * The rules a zone's name and holder must meet whenever a zone comes to be or changes hands: a
 * creation, the restore of a deleted zone (deleted-zones.ts) and a move to another owner
 * (zone-owners.ts) all ask them, in the transaction that makes the change; and the bounds of the
 * SOA fields a creation or an update sets.
 */
import type { DnssecPolicy } from '../../core/dnssec-policy';
import { isInZone } from '../../core/domain-name';
import { Conflict, Forbidden } from '../../core/errors';
import { SOA_FIELDS, soaErrors, type SoaField, type SoaTimers } from '../../core/soa';
import type { DomainRow, ReadRepos } from '../../store/types';
import type { FieldCheck } from '../changes/rule-fields';
import { reservedDomains, reservedRefusal } from './reserved-names';

/** What a zone's settings may change: the SOA timers and DNSSEC. */
export interface ZoneSettings extends Partial<SoaTimers> {
  dnssec_enabled?: boolean;
  /** Fields of the DNSSEC policy to change; the others stay (core/dnssec-policy.ts). */
  dnssec_policy?: Partial<DnssecPolicy>;
}

/** What the rules read of the configuration. */
export interface ZoneRules {
  /** The service's own domains (reserved-names.ts). */
  reserved: readonly string[];
  /** CATALOG_ZONE: no user may create it or a zone inside it. */
  catalogZone?: string;
  /** MAX_ZONES_PER_USER; absent: no limit. */
  maxZonesPerUser?: number;
}

export function zoneRules(config: { nameservers: readonly string[]; hostmaster?: string; catalogZone?: string; maxZonesPerUser?: number }): ZoneRules {
  return { reserved: reservedDomains(config), catalogZone: config.catalogZone, maxZonesPerUser: config.maxZonesPerUser };
}

/**
 * A zone in or around `name` held by another owner than `userId` alone (`teamId` null) or team
 * `teamId`: zones nest only under one owner, so that no account serves or delegates names of
 * another's zone. Creation, restore and a move to another owner all ask this. Callers hold
 * `quotas.lock('zones', 0)` so that two such acts cannot race.
 */
export async function foreignNeighbour(tx: ReadRepos, name: string, userId: number, teamId: number | null): Promise<{ zone: DomainRow; how: 'lies inside' | 'contains' } | undefined> {
  const zone = (await tx.domains.related(name)).find((d) => (teamId != null ? d.team_id !== teamId : d.team_id != null || d.user_id !== userId));
  return zone && { zone, how: isInZone(name, zone.name) ? 'lies inside' : 'contains' };
}

/** Whether a zone of `userId` and team `teamId` is an administrator's alone: the one holder the service's own domains admit. */
export async function adminAlone(tx: ReadRepos, userId: number, teamId: number | null): Promise<boolean> {
  return teamId == null && (await tx.users.byId(userId))?.is_admin === true;
}

/** Why this holder may not hold `name` as one of the service's own domains or a public suffix (null when they may). */
export async function reservedFor(rules: ZoneRules, tx: ReadRepos, name: string, userId: number, teamId: number | null): Promise<string | null> {
  return reservedRefusal(name, rules.reserved, await adminAlone(tx, userId, teamId));
}

/**
 * The rules a new zone must meet, in the transaction that makes it (after `quotas.lock`): a
 * creation, and the restore of a deleted zone. `userId` is whose zone it is (for a team's zone,
 * its creator) and `teamId` its team: the name is free, neither the catalog zone nor reserved,
 * nests only in or around zones of the same owner, and the user holds fewer than
 * MAX_ZONES_PER_USER zones. 409 or 403 naming the zone otherwise.
 */
export async function admissible(rules: ZoneRules, tx: ReadRepos, userId: number, name: string, teamId: number | null): Promise<void> {
  const existing = await tx.domains.byName(name);
  if (existing) {
    throw new Conflict(`${name} already exists`, { name: existing.user_id === userId ? 'you already manage this domain' : 'is already managed by another account' });
  }
  if (rules.catalogZone && isInZone(name, rules.catalogZone)) {
    throw new Conflict(`${name} is the catalog zone zonedeck publishes (CATALOG_ZONE)`, {
      name: name === rules.catalogZone ? 'is the catalog zone of this service' : 'lies inside the catalog zone of this service',
    });
  }
  const why = await reservedFor(rules, tx, name, userId, teamId);
  if (why) throw new Conflict(`${name} ${why}`, { name: why });
  const foreign = await foreignNeighbour(tx, name, userId, teamId);
  if (foreign) throw new Conflict(`${name} ${foreign.how} ${foreign.zone.name}, which another account manages`, { name: `${foreign.how} a domain managed by another account` });
  const max = rules.maxZonesPerUser;
  if (max !== undefined && (await tx.quotas.count('zones', userId)) >= max) {
    throw new Forbidden(`this account already holds ${max} zones; ${max} is the most one user may have (MAX_ZONES_PER_USER)`);
  }
}

/** The SOA timers `patch` sets over `current`, each changed one checked against its bounds (failures go to `check`). */
export function soaTimers(check: FieldCheck, current: SoaTimers, patch: ZoneSettings): SoaTimers {
  const merged = { ...current };
  const changed = new Set<SoaField>();
  for (const f of SOA_FIELDS) {
    if (patch[f] !== undefined) {
      merged[f] = patch[f]!;
      changed.add(f);
    }
  }
  for (const [field, message] of Object.entries(soaErrors(merged, changed))) check.fail(field, message!);
  return merged;
}
