/**
 * Team roles in words, and which teams a user may put a new zone in: those
 * where they are an owner or admin.
 */
import { ROLES, roleAtLeast, type Role } from '../../server/core/roles';
import type { Team } from './api-types';

export { ROLES };

/** What each role may do, one line each, strongest first. */
export const ROLE_WORDS: Record<Role, string> = {
  owner: 'everything, incl. members and deletion',
  admin: 'settings, DNSSEC and keys, and every record',
  editor: 'records only',
  viewer: 'read only',
};

export const roleLabel = (role: Role) => role.charAt(0).toUpperCase() + role.slice(1);

/** The names of the teams a new zone may be given to, sorted. */
export function ownerChoices(teams: readonly Team[]): string[] {
  return teams
    .filter((t) => t.role !== null && roleAtLeast(t.role, 'admin'))
    .map((t) => t.name)
    .sort();
}

/** Whether `username` may manage `team`'s members: owners, and administrators of the service. */
export function canManageMembers(role: Role | null | undefined, isAdmin: boolean): boolean {
  return role === 'owner' || isAdmin;
}
