/**
 * What the editor offers on a zone, from the `team` and `role` the API adds to a team's zone
 *: a user's own zone (no role) and an owner get everything; an admin all but
 * deleting the zone; an editor the records only; a viewer nothing but reading. The API
 * enforces each rule anyway: this only keeps controls that would be refused off the page.
 * An administrator reads any account's zone and changes none of it.
 * A secondary zone is written only by its transfers: nobody edits its records or settings,
 * but its owner may still delete it or move it.
 */
import { roleAtLeast } from '../../../server/core/roles';
import type { Domain } from '../../lib/api-types';

export interface ZoneAccess {
  /** Add, edit, disable and delete records; import a zone file; revert a change. */
  records: boolean;
  /** The SOA timers and DNSSEC. */
  settings: boolean;
  /** Delete the zone. */
  remove: boolean;
  /** "Team web · editor" for a team's zone. */
  badge?: string;
  /** Why the records cannot be changed here at all (a secondary zone), in one sentence. */
  readOnlyReason?: string;
  /** An administrator reading another account's zone: whose it is (`alice`, `team web`); nothing can be changed. */
  heldBy?: string;
}

/** The sentence a secondary zone's read-only views show. */
export function secondaryReason(primaries: readonly string[]): string {
  const from = primaries.length > 0 ? primaries.join(', ') : 'its primaries';
  return `Records come from ${from} by zone transfer; change them on the primary.`;
}

export function zoneAccess(d: Pick<Domain, 'team' | 'role'> & Partial<Pick<Domain, 'kind' | 'primaries' | 'held_by' | 'administrator_view'>>): ZoneAccess {
  // The server refuses an administrator every write to another account's zone: offer none.
  if (d.administrator_view) {
    const heldBy = d.held_by ?? 'another account';
    return { records: false, settings: false, remove: false, badge: `${heldBy} · read only to you`, heldBy };
  }
  const access = byRole(d);
  if (d.kind !== 'secondary') return access;
  return { ...access, records: false, settings: false, readOnlyReason: secondaryReason(d.primaries ?? []) };
}

function byRole(d: Pick<Domain, 'team' | 'role'>): ZoneAccess {
  const role = d.role;
  if (!role) return { records: true, settings: true, remove: true };
  return {
    records: roleAtLeast(role, 'editor'),
    settings: roleAtLeast(role, 'admin'),
    remove: role === 'owner',
    badge: `Team ${d.team ?? '?'} · ${role}`,
  };
}
