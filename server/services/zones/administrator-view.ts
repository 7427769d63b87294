/**
 * An administrator's view of other accounts' zones: any zone may be read, none written. The API's
 * edge asks for it only when the path's zone is not the administrator's to reach as a user, so an
 * administrator's own zones and team zones keep their roles; and only for reads: a write to another
 * account's zone is refused before any handler, and the change set (which judges the role on the
 * row it locks) would find no role for them anyway.
 */
import { APEX, parseZonePathName } from '../../core/domain-name';
import type { AccountZone, Page, ReadRepos, UserRow, Window } from '../../store/types';
import type { Place } from './place';

export interface AdministratorView {
  place: Place;
  /** Whose zone it is, in words: `alice`, or `team web`. */
  heldBy: string;
}

/** The zone an administrator's path names, held by any account (null for a non-administrator, or no such zone). */
export async function administratorView(repos: ReadRepos, user: Pick<UserRow, 'is_admin'>, ref: string): Promise<AdministratorView | null> {
  if (!user.is_admin) return null;
  let name: string;
  try {
    name = parseZonePathName(ref);
  } catch {
    return null;
  }
  const zone = await repos.domains.byName(name);
  if (!zone) return null;
  const team = zone.team_id != null ? await repos.teams.byId(zone.team_id) : undefined;
  const heldBy = team ? `team ${team.name}` : ((await repos.users.byId(zone.user_id))?.username ?? 'another account');
  // Read-only: what a viewer may do.
  return { place: { zone, base: APEX, role: 'viewer' }, heldBy };
}

/** Every account's zones, for an administrator's list; `search` matches a zone's name, its user's or its team's. */
export function accountZones(repos: ReadRepos, w: Window, search?: string): Promise<Page<AccountZone>> {
  return repos.domains.acrossAccounts(w, search?.trim().toLowerCase() || undefined);
}
