/**
 * Who may reach a zone, and with which role: a zone of a user alone is theirs
 * (`owner`); a team's zone is reached by the team's members with their role. Everyone else
 * reaches nothing: the zone is NotFound to them, exactly like a missing one.
 */
import { Forbidden, Invalid } from '../../core/errors';
import { effectiveScope, ownerOnly, roleAtLeast, type Role } from '../../core/roles';
import { recordRefusal, zoneRefusal, type Scope } from '../../core/scope';
import type { DomainRow, ReadRepos, TeamRow } from '../../store/types';

/** The user's role on the zone, or null when they may not reach it at all. */
export async function roleOn(repos: ReadRepos, userId: number, zone: Pick<DomainRow, 'user_id' | 'team_id'>): Promise<Role | null> {
  if (zone.team_id != null) return (await repos.teams.member(zone.team_id, userId))?.role ?? null;
  return zone.user_id === userId ? 'owner' : null;
}

/**
 * The team by name, for a user whose role in it is `least` or stronger (else Forbidden naming
 * `what` they tried); a team they are not in is an unknown team, like a missing one (the `team` field).
 */
export async function teamFor(tx: ReadRepos, userId: number, name: string, least: Role, what: string): Promise<TeamRow> {
  const team = typeof name === 'string' && name.length <= 64 ? await tx.teams.byName(name.trim().toLowerCase()) : undefined;
  const member = team && (await tx.teams.member(team.id, userId));
  if (!team || !member) throw Invalid.field('team', 'is not a team you belong to');
  if (!roleAtLeast(member.role, least)) throw new Forbidden(`only ${least === 'owner' ? 'an owner' : 'an owner or admin'} of team ${team.name} may ${what}; your role is ${member.role}`);
  return team;
}

/** Why the user may not do an owner's act on a team's zone (null for their own zone, or as a team owner). */
export async function teamOwnerRefusal(tx: ReadRepos, userId: number, zone: DomainRow, what: string): Promise<string | null> {
  if (zone.team_id == null) return null;
  const role = await roleOn(tx, userId, zone);
  const team = (await tx.teams.byId(zone.team_id))?.name ?? '';
  return role ? ownerOnly(role, team, what) : `only an owner of team ${team} may ${what}`;
}

/** What a role may do, as a scope (a member's right is its credential's scope ∩ this). */
export const roleScope = (role: Role): Scope => effectiveScope(undefined, role);

/** The words for a role's refusal: whose role it is and what it allows. */
async function roleWords(repos: ReadRepos, zone: Pick<DomainRow, 'team_id'>, role: Role): Promise<string> {
  const team = zone.team_id != null ? (await repos.teams.byId(zone.team_id))?.name : undefined;
  const allows = role === 'viewer' ? 'reads only' : role === 'editor' ? 'changes records only' : 'may not do this';
  return `your role${team ? ` in team ${team}` : ''} is ${role}, which ${allows}`;
}

/** Why the role may not change this RRset (null when it may). */
export async function roleRecordRefusal(repos: ReadRepos, zone: DomainRow, role: Role, name: string, type: string): Promise<string | null> {
  return recordRefusal(roleScope(role), zone.name, name, type) ? roleWords(repos, zone, role) : null;
}

/** Why the role may not change the zone itself: its settings, DNSSEC, keys (null when it may). */
export async function roleZoneRefusal(repos: ReadRepos, zone: DomainRow, role: Role, what: string): Promise<string | null> {
  return zoneRefusal(roleScope(role), zone.name, what) ? `${await roleWords(repos, zone, role)}: not ${what}` : null;
}

/**
 * What the API's edge judges of a role before any handler (the change set judges it again on
 * the locked row): a viewer writes nothing; an editor no write to the zone itself (settings,
 * DNSSEC, keys, deletion, attributes). Null when the role allows the request.
 */
export async function edgeRoleRefusal(repos: ReadRepos, zone: DomainRow, role: Role, write: boolean, zoneWrite: boolean): Promise<string | null> {
  if (role === 'viewer' && write) return roleWords(repos, zone, role);
  if (role === 'editor' && zoneWrite) return `${await roleWords(repos, zone, role)}: not the zone itself`;
  return null;
}
