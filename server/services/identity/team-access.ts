/**
 * A team as the acting user may reach it: its name and roles checked, the team found as a member
 * or an administrator sees it (anyone else: NotFound, as for a missing team), an owner's act
 * refused to the rest, and the one rule of membership: a team keeps an owner.
 */
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import { isRole, ROLES, type Role } from '../../core/roles';
import type { InvitationRow, MemberRow, ReadRepos, TeamRow, UserRow } from '../../store/types';
import type { AuditActor } from './audit';

/** The usernames accounts are made with: an invitation to any other name is a typing mistake, said so (no user could have it). */
export const USERNAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** 1–64 characters; a dot only between two others, so `ops`, `ops.` and `ops..` cannot be three look-alike teams. */
const TEAM_NAME = /^(?=.{1,64}$)[a-z0-9](?:[a-z0-9_-]|\.(?=[a-z0-9_-]))*$/;

/** Who acts: the user (their row, for is_admin) and how, for the audit log. */
export interface TeamActor extends AuditActor {
  user: UserRow;
}

export const parseTeamName = (field: string, raw: unknown): string => {
  const name = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (!TEAM_NAME.test(name)) throw Invalid.field(field, 'must be 1–64 letters, digits, hyphens or underscores, starting with a letter or digit, with single dots between them');
  return name;
};

export const parseRole = (raw: unknown): Role => {
  if (!isRole(raw)) throw Invalid.field('role', `must be one of ${ROLES.join(', ')}`);
  return raw;
};

/** The team by name as the actor may see it: a member, or an administrator; anyone else: NotFound, as for a missing team. */
export async function visibleTeam(tx: ReadRepos, actor: TeamActor, rawName: string): Promise<{ team: TeamRow; role: Role | null }> {
  const name = typeof rawName === 'string' ? rawName.trim().toLowerCase() : '';
  const team = TEAM_NAME.test(name) ? await tx.teams.byName(name) : undefined;
  const role = team ? ((await tx.teams.member(team.id, actor.user.id))?.role ?? null) : null;
  if (!team || (!role && !actor.user.is_admin)) throw new NotFound(`no team named ${name.slice(0, 64)}`);
  return { team, role };
}

/** The team, for an owner of it or an administrator (else Forbidden, or NotFound for a stranger). */
export async function ownedTeam(tx: ReadRepos, actor: TeamActor, name: string, what: string): Promise<TeamRow> {
  const { team, role } = await visibleTeam(tx, actor, name);
  if (role !== 'owner' && !actor.user.is_admin) throw new Forbidden(`only an owner of team ${team.name} may ${what}; your role is ${role}`);
  return team;
}

/** The actor's own invitation into the team; a team they are not invited to is NotFound, whether or not it exists. */
export async function invitedTo(tx: ReadRepos, actor: TeamActor, rawName: string): Promise<{ team: TeamRow; invitation: InvitationRow }> {
  const name = typeof rawName === 'string' ? rawName.trim().toLowerCase() : '';
  const team = TEAM_NAME.test(name) ? await tx.teams.byName(name) : undefined;
  const invitation = team && (await tx.invitations.byUser(team.id, actor.user.id));
  if (!team || !invitation) throw new NotFound(`you have no invitation to a team named ${name.slice(0, 64)}`);
  return { team, invitation };
}

/** The member of the team by username; anyone else is NotFound. */
export async function memberOf(tx: ReadRepos, team: TeamRow, username: string): Promise<{ user: UserRow; member: MemberRow }> {
  const user = await tx.users.byUsername(String(username).trim().toLowerCase().slice(0, 64));
  const member = user && (await tx.teams.member(team.id, user.id));
  if (!user || !member) throw new NotFound(`${String(username).slice(0, 64)} is not a member of team ${team.name}`);
  return { user, member };
}

/** At least one owner stays: the last one may not leave or step down. */
export async function keepsAnOwner(tx: ReadRepos, team: TeamRow, leaving: MemberRow): Promise<void> {
  if (leaving.role !== 'owner') return;
  const owners = (await tx.teams.members(team.id)).filter((m) => m.role === 'owner');
  if (owners.length <= 1) throw new Conflict(`${leaving.username} is the last owner of team ${team.name}: make another member an owner first`, { username: 'is the last owner' });
}
