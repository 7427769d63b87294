/**
 * Team roles as scopes, so that one machinery judges them: the effective right
 * of a member's token or TSIG key on a team's zone is its own scope ∩ its role's scope.
 *
 * - `owner`: everything, members and deletion included.
 * - `admin`: the zone's settings, DNSSEC and keys, and every record; not members, not deletion.
 * - `editor`: records only: the scope of every name (`@` and `*`), which (like any names scope)
 *   changes records and no setting, key or zone, and admits delegations and DNAMEs.
 * - `viewer`: read only.
 *
 * Pure: no I/O, so the dashboard can use it too.
 */
import type { Scope } from './scope';

export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { owner: 3, admin: 2, editor: 1, viewer: 0 };

/** Whether `role` is `least` or stronger. */
export const roleAtLeast = (role: Role, least: Role): boolean => RANK[role] >= RANK[least];

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);

/** The scope of every record name: `@` and `*` (a names scope: records only). */
const EVERY_NAME = ['@', '*'];

/**
 * The credential's scope narrowed by the role: exactly their intersection, since the role's own
 * scope is nothing (owner, admin), every name (editor) or read-only (viewer).
 */
export function effectiveScope(scope: Scope | undefined, role: Role): Scope {
  const s = scope ?? {};
  if (role === 'viewer') return { ...s, read_only: true };
  // Any names list is within every name already; with none, the role adds it.
  if (role === 'editor' && !s.names?.length) return { ...s, names: EVERY_NAME };
  return s;
}

/** Why a role may not do a thing that is the owner's alone (null when it may). */
export function ownerOnly(role: Role, team: string, what: string): string | null {
  return role === 'owner' ? null : `only an owner of team ${team} may ${what}; your role is ${role}`;
}
