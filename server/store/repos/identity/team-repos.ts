/**
 * The repos of teams and the account audit log (migrations 0014 and 0022): teams, their members
 * with roles, pending invitations, and audit events.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../schema';
import { count, pageTotal } from '../paging';
import type { Role } from '../../../core/roles';
import type { AuditEventRow, InvitationRow, MemberRow, Repos } from '../../types';

const auditRow = (r: Selectable<Database['audit_events']>): AuditEventRow => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> });

export function createTeamRepos(db: Kysely<Database>): Pick<Repos, 'teams' | 'invitations' | 'audit'> {
  const memberQuery = () =>
    db
      .selectFrom('team_members')
      .innerJoin('users', 'users.id', 'team_members.user_id')
      .select(['team_members.id', 'team_members.team_id', 'team_members.user_id', 'users.username', 'team_members.role', 'team_members.created_at']);
  const member = (r: { id: number; team_id: number; user_id: number; username: string; role: string; created_at: string }): MemberRow => ({ ...r, role: r.role as Role });
  const invitationQuery = () =>
    db
      .selectFrom('team_invitations')
      .innerJoin('teams', 'teams.id', 'team_invitations.team_id')
      .select([
        'team_invitations.id',
        'team_invitations.team_id',
        'teams.name as team_name',
        'team_invitations.username',
        'team_invitations.user_id',
        'team_invitations.role',
        'team_invitations.invited_by',
        'team_invitations.created_at',
      ]);
  const invitation = (r: Omit<InvitationRow, 'role'> & { role: string }): InvitationRow => ({ ...r, role: r.role as Role });

  return {
    teams: {
      insert: async (row) => db.insertInto('teams').values(row).returningAll().executeTakeFirstOrThrow(),
      byName: (name) => db.selectFrom('teams').selectAll().where('name', '=', name).executeTakeFirst(),
      byId: (id) => db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst(),
      page: async (userId, w, all) => {
        const mine = db.selectFrom('team_members').select('team_id').where('user_id', '=', userId);
        let q = db.selectFrom('teams');
        if (!all) q = q.where('id', 'in', mine);
        const rows = await q
          .selectAll('teams')
          .select((eb) => [
            eb.selectFrom('team_members').select('role').whereRef('team_members.team_id', '=', 'teams.id').where('team_members.user_id', '=', userId).as('role'),
            eb
              .selectFrom('team_members')
              .select((e) => e.fn.countAll<number>().as('n'))
              .whereRef('team_members.team_id', '=', 'teams.id')
              .as('members'),
            eb
              .selectFrom('domains')
              .select((e) => e.fn.countAll<number>().as('n'))
              .whereRef('domains.team_id', '=', 'teams.id')
              .as('zones'),
          ])
          .orderBy('name')
          .limit(w.limit)
          .offset(w.offset)
          .execute();
        const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
        return { rows: rows.map((r) => ({ ...r, role: (r.role as Role | null) ?? null, members: Number(r.members ?? 0), zones: Number(r.zones ?? 0) })), total };
      },
      delete: async (id) => Number((await db.deleteFrom('teams').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
      members: async (teamId) => (await memberQuery().where('team_members.team_id', '=', teamId).orderBy('users.username').execute()).map(member),
      member: async (teamId, userId) => {
        const r = await memberQuery().where('team_members.team_id', '=', teamId).where('team_members.user_id', '=', userId).executeTakeFirst();
        return r && member(r);
      },
      setMember: async (teamId, userId, role, at) => {
        // A new row at every change: ids only grow, so the DNS thread sees the change by the highest id.
        await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
        await db.insertInto('team_members').values({ team_id: teamId, user_id: userId, role, created_at: at }).execute();
        return member(await memberQuery().where('team_members.team_id', '=', teamId).where('team_members.user_id', '=', userId).executeTakeFirstOrThrow());
      },
      removeMember: async (teamId, userId) => Number((await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst()).numDeletedRows) > 0,
      rolesOf: async (userId) => new Map((await db.selectFrom('team_members').select(['team_id', 'role']).where('user_id', '=', userId).execute()).map((r) => [r.team_id, r.role as Role])),
      allMembers: async () => (await db.selectFrom('team_members').select(['id', 'team_id', 'user_id', 'role']).execute()).map((r) => ({ ...r, role: r.role as Role })),
      version: async () => {
        const r = await db
          .selectFrom('team_members')
          .select((e) => [e.fn.countAll<number>().as('n'), e.fn.max('id').as('last')])
          .executeTakeFirst();
        return `${Number(r?.n ?? 0)}:${Number(r?.last ?? 0)}`;
      },
      zoneCount: (teamId) =>
        count(
          db
            .selectFrom('domains')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('team_id', '=', teamId)
            .executeTakeFirst(),
        ),
    },
    invitations: {
      insert: async (row) => {
        const { id } = await db.insertInto('team_invitations').values(row).returning('id').executeTakeFirstOrThrow();
        return invitation(await invitationQuery().where('team_invitations.id', '=', id).executeTakeFirstOrThrow());
      },
      ofTeam: async (teamId) => (await invitationQuery().where('team_invitations.team_id', '=', teamId).orderBy('team_invitations.username').execute()).map(invitation),
      ofUser: async (userId) => (await invitationQuery().where('team_invitations.user_id', '=', userId).orderBy('team_invitations.id', 'desc').execute()).map(invitation),
      byUsername: async (teamId, username) => {
        const r = await invitationQuery().where('team_invitations.team_id', '=', teamId).where('team_invitations.username', '=', username).executeTakeFirst();
        return r && invitation(r);
      },
      byUser: async (teamId, userId) => {
        const r = await invitationQuery().where('team_invitations.team_id', '=', teamId).where('team_invitations.user_id', '=', userId).executeTakeFirst();
        return r && invitation(r);
      },
      countOfTeam: (teamId) =>
        count(
          db
            .selectFrom('team_invitations')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('team_id', '=', teamId)
            .executeTakeFirst(),
        ),
      delete: async (id) => Number((await db.deleteFrom('team_invitations').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    },
    audit: {
      insert: async ({ detail, ...row }) =>
        auditRow(
          await db
            .insertInto('audit_events')
            .values({ ...row, detail: JSON.stringify(detail) })
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      page: async (f, w) => {
        let q = db.selectFrom('audit_events');
        if (!f.all) {
          const users = f.userIds ?? [];
          const teams = f.teamIds ?? [];
          q = q.where((eb) =>
            eb.or([
              ...(users.length ? [eb('actor_user_id', 'in', [...users]), eb('subject_user_id', 'in', [...users])] : []),
              ...(teams.length ? [eb('team_id', 'in', [...teams])] : []),
              ...(users.length || teams.length ? [] : [sql<boolean>`1 = 0`]),
            ]),
          );
        }
        if (f.kind) q = q.where('kind', '=', f.kind);
        if (f.kinds) q = f.kinds.length ? q.where('kind', 'in', [...f.kinds]) : q.where(sql<boolean>`1 = 0`);
        if (f.username) {
          const name = f.username.toLowerCase();
          q = q.where((eb) => eb.or([eb('actor_username', '=', name), eb('subject_username', '=', name)]));
        }
        if (f.since) q = q.where('created_at', '>=', f.since);
        if (f.until) q = q.where('created_at', '<', f.until);
        const rows = await q.selectAll().orderBy('id', 'desc').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
        return { rows: rows.map(auditRow), total };
      },
      prune: async (at) => Number((await db.deleteFrom('audit_events').where('created_at', '<', at).executeTakeFirst()).numDeletedRows),
    },
  };
}
