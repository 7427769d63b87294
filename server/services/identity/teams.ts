/**
 * Teams: a zone is owned by a user or by a team; a team's members reach its zones with their
 * role. Owners invite members (a user joins by accepting), change roles, remove members and delete
 * the team; an administrator of the service may do what an owner does to any team. Every change of
 * membership or invitation is an audit event, in the transaction that makes it. Finding a team as
 * the actor may reach it is in team-access.ts.
 */
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import type { Role } from '../../core/roles';
import type { DomainRow, InvitationRow, MemberRow, Page, ServiceRepos, ServiceStore, TeamRow, Window } from '../../store/types';
import type { Audit, AuditKind } from './audit';
import { invitedTo, keepsAnOwner, memberOf, ownedTeam, parseRole, parseTeamName, USERNAME, visibleTeam, type TeamActor } from './team-access';

export type { TeamActor } from './team-access';

/** Pending invitations a team may hold at once: each is a row anyone who owns a team could otherwise make without end. */
export const MAX_PENDING = 100;

export interface TeamView {
  name: string;
  /** The acting user's role; null for an administrator looking at a team they are not in. */
  role: Role | null;
  members: number;
  zones: number;
  created_at: string;
}

export class Teams {
  constructor(
    private readonly store: ServiceStore,
    private readonly audit: Audit,
  ) {}

  async page(actor: TeamActor, w: Window, all = false): Promise<Page<TeamView>> {
    const { rows, total } = await this.store.teams.page(actor.user.id, w, all && actor.user.is_admin);
    return { rows: rows.map((t) => ({ name: t.name, role: t.role, members: t.members, zones: t.zones, created_at: t.created_at })), total };
  }

  async get(actor: TeamActor, name: string): Promise<TeamView & { members_list: MemberRow[] }> {
    const { team, role } = await visibleTeam(this.store, actor, name);
    const members = await this.store.teams.members(team.id);
    return { name: team.name, role, members: members.length, zones: await this.store.teams.zoneCount(team.id), created_at: team.created_at, members_list: members };
  }

  /** A new team with its creator as its owner. */
  async create(actor: TeamActor, rawName: unknown): Promise<TeamView> {
    const name = parseTeamName('name', rawName);
    return this.store.transaction(async (tx) => {
      if (await tx.teams.byName(name)) throw new Conflict(`team ${name} already exists`, { name: 'is already taken' });
      const at = new Date().toISOString();
      const team = await tx.teams.insert({ name, created_at: at });
      await tx.teams.setMember(team.id, actor.user.id, 'owner', at);
      await this.record(tx, actor, 'team-created', team);
      return { name, role: 'owner' as const, members: 1, zones: 0, created_at: at };
    });
  }

  /** Deletes a team that owns no zone (move or delete them first). */
  async remove(actor: TeamActor, name: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const team = await ownedTeam(tx, actor, name, 'delete the team');
      const zones = await tx.teams.zoneCount(team.id);
      if (zones > 0) throw new Conflict(`team ${team.name} still owns ${zones} zone${zones === 1 ? '' : 's'}: move or delete them first`);
      await this.record(tx, actor, 'team-deleted', team);
      await tx.teams.delete(team.id);
    });
  }

  async members(actor: TeamActor, name: string): Promise<MemberRow[]> {
    const { team } = await visibleTeam(this.store, actor, name);
    return this.store.teams.members(team.id);
  }

  /**
   * Invites a user by username with a role (an owner's act); they become a member when they
   * accept. A name nobody has is answered and listed exactly like a user's, so that inviting
   * tells no one which usernames exist; that invitation never matches anyone.
   */
  async invite(actor: TeamActor, name: string, input: { username?: unknown; role?: unknown }): Promise<InvitationRow> {
    const role = parseRole(input.role);
    const username = typeof input.username === 'string' ? input.username.trim().toLowerCase() : '';
    if (!USERNAME.test(username)) throw Invalid.field('username', 'must be a username: 1–64 letters, digits, dots, hyphens or underscores, starting with a letter or digit');
    return this.store.transaction(async (tx) => {
      const team = await ownedTeam(tx, actor, name, 'invite members');
      const user = await tx.users.byUsername(username);
      if (user && (await tx.teams.member(team.id, user.id))) throw new Conflict(`${username} is already a member of team ${team.name}`, { username: 'is already a member' });
      if (await tx.invitations.byUsername(team.id, username))
        throw new Conflict(`${username} is already invited to team ${team.name}: cancel that invitation to offer another role`, { username: 'is already invited' });
      if ((await tx.invitations.countOfTeam(team.id)) >= MAX_PENDING)
        throw new Conflict(`team ${team.name} already has ${MAX_PENDING} pending invitations, the most a team may have: cancel some first`);
      const invitation = await tx.invitations.insert({ team_id: team.id, username, user_id: user?.id ?? null, role, invited_by: actor.user.username, created_at: new Date().toISOString() });
      await this.record(tx, actor, 'member-invited', team, { id: user?.id ?? null, username }, { role });
      return invitation;
    });
  }

  /** A team's pending invitations, for its owners and admins (and administrators). */
  async invitations(actor: TeamActor, name: string): Promise<InvitationRow[]> {
    const { team, role } = await visibleTeam(this.store, actor, name);
    if (role !== 'owner' && role !== 'admin' && !actor.user.is_admin) throw new Forbidden(`only an owner or admin of team ${team.name} may see its invitations; your role is ${role}`);
    return this.store.invitations.ofTeam(team.id);
  }

  /** Withdraws a pending invitation (an owner's act). */
  async cancel(actor: TeamActor, name: string, username: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const team = await ownedTeam(tx, actor, name, 'cancel invitations');
      const invitation = await tx.invitations.byUsername(team.id, String(username).trim().toLowerCase().slice(0, 64));
      if (!invitation) throw new NotFound(`${String(username).slice(0, 64)} has no pending invitation to team ${team.name}`);
      await tx.invitations.delete(invitation.id);
      await this.record(tx, actor, 'invitation-cancelled', team, { id: invitation.user_id, username: invitation.username }, { role: invitation.role });
    });
  }

  /** The invitations the acting user may accept or decline, newest first. */
  mine(actor: TeamActor): Promise<InvitationRow[]> {
    return this.store.invitations.ofUser(actor.user.id);
  }

  /** Accepts the user's invitation into the team: from now on they reach its zones with the role it offered. */
  async accept(actor: TeamActor, teamName: string): Promise<TeamView> {
    return this.store.transaction(async (tx) => {
      const { team, invitation } = await invitedTo(tx, actor, teamName);
      if (await tx.teams.member(team.id, actor.user.id)) throw new Conflict(`you are already a member of team ${team.name}`);
      await tx.invitations.delete(invitation.id);
      const at = new Date().toISOString();
      await tx.teams.setMember(team.id, actor.user.id, invitation.role, at);
      await this.record(tx, actor, 'invitation-accepted', team, { id: actor.user.id, username: actor.user.username }, { role: invitation.role, invited_by: invitation.invited_by });
      const members = await tx.teams.members(team.id);
      return { name: team.name, role: invitation.role, members: members.length, zones: await tx.teams.zoneCount(team.id), created_at: team.created_at };
    });
  }

  /** Declines the user's invitation into the team. */
  async decline(actor: TeamActor, teamName: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const { team, invitation } = await invitedTo(tx, actor, teamName);
      await tx.invitations.delete(invitation.id);
      await this.record(tx, actor, 'invitation-declined', team, { id: actor.user.id, username: actor.user.username }, { role: invitation.role, invited_by: invitation.invited_by });
    });
  }

  /** Changes a member's role (an owner's act); the last owner stays one. */
  async setRole(actor: TeamActor, name: string, username: string, rawRole: unknown): Promise<MemberRow> {
    const role = parseRole(rawRole);
    return this.store.transaction(async (tx) => {
      const team = await ownedTeam(tx, actor, name, "change members' roles");
      const { user, member: current } = await memberOf(tx, team, username);
      if (current.role === role) return current;
      if (role !== 'owner') await keepsAnOwner(tx, team, current);
      const member = await tx.teams.setMember(team.id, user.id, role, new Date().toISOString());
      await this.record(tx, actor, 'member-role-changed', team, { id: user.id, username: user.username }, { from: current.role, to: role });
      return member;
    });
  }

  /** Removes a member: an owner's act, or a member leaving; the last owner cannot leave. */
  async removeMember(actor: TeamActor, name: string, username: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const { team, role } = await visibleTeam(tx, actor, name);
      const { user, member: current } = await memberOf(tx, team, username);
      const leaving = user.id === actor.user.id;
      if (!leaving && role !== 'owner' && !actor.user.is_admin) throw new Forbidden(`only an owner of team ${team.name} may remove members; your role is ${role}`);
      await keepsAnOwner(tx, team, current);
      await tx.teams.removeMember(team.id, user.id);
      await this.record(tx, actor, 'member-removed', team, { id: user.id, username: user.username }, { role: current.role });
    });
  }

  /** The team name and the user's role for each team zone among `zones` (by domain id); a user's own zones are absent. */
  async ofZones(userId: number, zones: readonly DomainRow[]): Promise<Map<number, { team: string; role: Role }>> {
    const out = new Map<number, { team: string; role: Role }>();
    const teamZones = zones.filter((z) => z.team_id != null);
    if (teamZones.length === 0) return out;
    const roles = await this.store.teams.rolesOf(userId);
    const names = new Map<number, string>();
    for (const z of teamZones) {
      const id = z.team_id!;
      if (!names.has(id)) names.set(id, (await this.store.teams.byId(id))?.name ?? '');
      const role = roles.get(id);
      if (role) out.set(z.id, { team: names.get(id)!, role });
    }
    return out;
  }

  /** One audit event of the team, in the transaction of the change it records. */
  private record(tx: ServiceRepos, actor: TeamActor, kind: AuditKind, team: TeamRow, subject?: { id: number | null; username: string }, detail?: Record<string, unknown>) {
    return this.audit.record({ kind, actor, team: { id: team.id, name: team.name }, subject, detail }, tx);
  }
}
