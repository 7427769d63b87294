/**
 * Finding the zone a request means, as its user may reach it: by the zone's name, or by any name
 * inside it (a record request made at `www.example.com`). Another user's zone is NotFound exactly
 * like a missing one, so that a name tells nobody whether someone else hosts it.
 */
import { APEX, normalizeRecordName, normalizeZoneName, parseZonePathName, strictPathName } from '../../core/domain-name';
import { NotFound, RuleError } from '../../core/errors';
import type { Role } from '../../core/roles';
import type { DomainRow, ReadRepos } from '../../store/types';
import { roleOn } from './access';

/**
 * Where a record request points: the user's zone and, inside it, the name the request was
 * made at (`base`, relative to the zone; APEX when the request named the zone itself).
 * ACME clients put the certificate's name in the path (`www.example.com` for a zone
 * `example.com`), and the record names they send are relative to it.
 */
export interface Place {
  zone: DomainRow;
  base: string;
  /** The user's role on the zone, as judged when the place was found by name (the API's path check keeps it). */
  role?: Role;
}

/** A zone as a caller names it: a name (the CLI, a DNS message) or a place the API resolved from its path. */
export type ZoneRef = string | Place;

/** A name quoted in an error, cut to a sane length. */
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}…` : s);

/** A record name given relative to a place, as stored (relative to the zone). */
export function nameAtPlace(input: string, { zone, base }: Place): string {
  if (base === APEX) return normalizeRecordName(input, zone.name);
  const rel = normalizeRecordName(input, `${base}.${zone.name}`);
  return rel === APEX ? base : `${rel}.${base}`;
}

/** A stored record name as seen from a place (null when it lies outside it). */
export function nameFromPlace(name: string, base: string): string | null {
  if (base === APEX) return name;
  if (name === base) return APEX;
  return name.endsWith(`.${base}`) ? name.slice(0, -(base.length + 1)) : null;
}

/**
 * A place resolved earlier (by the API's path check), as it is now: read again inside a
 * transaction (`repos` other than `store`), and NotFound unless it is still the same zone of the
 * same user. Outside a transaction it is taken as resolved.
 */
async function again(store: ReadRepos, userId: number, ref: Place, repos: ReadRepos): Promise<Place> {
  if (repos === store) return ref;
  const zone = await repos.domains.byId(ref.zone.id);
  if (!zone || zone.name !== ref.zone.name || !(await roleOn(repos, userId, zone))) throw new NotFound(`no domain named ${ref.zone.name}`);
  return { zone, base: ref.base };
}

/**
 * The user's zone by name (parsed strictly, as a path names it), or a place already resolved;
 * another user's zone is NotFound exactly like a missing one.
 */
export async function ownedZone(store: ReadRepos, userId: number, ref: ZoneRef, repos: ReadRepos = store): Promise<DomainRow> {
  if (typeof ref !== 'string') {
    if (ref.base !== APEX) throw new NotFound(`no domain named ${ref.base}.${ref.zone.name}`);
    return (await again(store, userId, ref, repos)).zone;
  }
  return (await ownedPlace(repos, userId, ref)).zone;
}

/** The user's zone by name (parsed strictly, as a path names it) as a place at its apex, with their role on it. */
export async function ownedPlace(repos: ReadRepos, userId: number, ref: string): Promise<Place> {
  let normalized: string;
  try {
    normalized = parseZonePathName(ref);
  } catch {
    throw new NotFound(`no domain named ${clip(ref)}`);
  }
  const zone = await repos.domains.byName(normalized);
  const role = zone && (await roleOn(repos, userId, zone));
  if (!zone || !role) throw new NotFound(`no domain named ${normalized}`);
  return { zone, base: APEX, role };
}

/**
 * The closest enclosing zone of the user for a name at or inside one of their zones
 * (a leading `*\.` of a wildcard certificate name is dropped), or a place already resolved.
 * The name is parsed strictly, as a path names it. NotFound otherwise, also for another
 * user's zone.
 */
export async function zonePlace(store: ReadRepos, userId: number, ref: ZoneRef, repos: ReadRepos = store): Promise<Place> {
  if (typeof ref !== 'string') return again(store, userId, ref, repos);
  let name: string;
  try {
    name = strictPathName(ref).toLowerCase();
  } catch {
    throw new NotFound(`no domain named ${clip(ref)}`);
  }
  if (name.startsWith('*.')) name = name.slice(2);
  const labels = name.split('.');
  for (let i = 0; i + 2 <= labels.length; i++) {
    let zoneName: string;
    try {
      zoneName = normalizeZoneName(labels.slice(i).join('.'));
    } catch {
      continue;
    }
    const zone = await repos.domains.byName(zoneName);
    const role = zone && (await roleOn(repos, userId, zone));
    if (!zone || !role) continue;
    if (i === 0) return { zone, base: APEX, role };
    try {
      return { zone, base: normalizeRecordName(`${name}.`, zone.name), role };
    } catch (e) {
      if (e instanceof RuleError) break;
      throw e;
    }
  }
  throw new NotFound(`no domain named ${clip(name)}`);
}
