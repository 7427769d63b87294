/**
 * Teams and their members: `/teams`, `/teams/:name`, `/teams/:name/members` (an owner invites,
 * the user accepts at `/invitations`), `/teams/:name/invitations`, and moving a zone between its
 * user and a team (`PUT /domains/:name/owner`). A team the user is not in is 404, exactly like a
 * missing one; an act that is an owner's is 403 for other members.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { isRestricted } from '../../core/scope';
import { Forbidden } from '../../core/errors';
import type { Services } from '../../services';
import type { InvitationRow, MemberRow } from '../../store/types';
import { auditView } from './audit';
import { auditActor } from '../../http/audit-actor';
import { AuditEventSchema } from './account-schemas';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { pathZone } from '../zones/scope';
import type { ApiEnv } from '../auth';
import type { Context } from 'hono';

const tags = ['Teams'];
const ROLE = z.enum(['owner', 'admin', 'editor', 'viewer'], { error: 'must be one of owner, admin, editor, viewer' });
const name = z.string({ error: 'is required' }).max(64, 'must be at most 64 characters');

export const TeamSchema = z
  .object({
    name: z.string().openapi({ example: 'ops' }),
    role: ROLE.nullable().openapi({ description: 'Your role in the team; null for an administrator who is not a member' }),
    members: z.number().int(),
    zones: z.number().int(),
    created_at: z.string(),
  })
  .openapi('Team');
export const MemberSchema = z.object({ username: z.string(), role: ROLE, created_at: z.string().openapi({ description: 'When the member got this role' }) }).openapi('Member');
export const TeamInvitationSchema = z
  .object({
    username: z.string(),
    role: ROLE.openapi({ description: 'The role the user gets by accepting' }),
    invited_by: z.string(),
    created_at: z.string(),
  })
  .openapi('TeamInvitation');
const teamParam = z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'ops' }) });
const memberParam = z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' } }), username: z.string().openapi({ param: { name: 'username', in: 'path' } }) });

const memberView = (m: MemberRow) => ({ username: m.username, role: m.role, created_at: m.created_at });
const invitationView = (i: InvitationRow) => ({ username: i.username, role: i.role, invited_by: i.invited_by, created_at: i.created_at });

const routes = {
  list: createRoute({
    method: 'get',
    path: '/teams',
    summary: 'The teams you are a member of (an administrator: every team with ?all=true)',
    tags,
    security,
    request: { query: z.object({ ...pageQuery, all: z.enum(['true', 'false'], { error: 'must be true or false' }).optional() }) },
    responses: { 200: { description: 'Teams, by name', headers: pageHeaders, content: json(z.array(TeamSchema)) }, ...errors(400) },
  }),
  create: createRoute({
    method: 'post',
    path: '/teams',
    summary: 'Create a team; you are its owner',
    tags,
    security,
    request: { body: { required: true, content: json(z.strictObject({ name })) } },
    responses: { 201: { description: 'The new team', content: json(TeamSchema) }, ...errors(400, 403, 408, 409, 413) },
  }),
  get: createRoute({
    method: 'get',
    path: '/teams/{name}',
    summary: 'One team with its members',
    tags,
    security,
    request: { params: teamParam },
    responses: { 200: { description: 'The team', content: json(TeamSchema.extend({ members_list: z.array(MemberSchema) })) }, ...errors(404) },
  }),
  remove: createRoute({
    method: 'delete',
    path: '/teams/{name}',
    summary: 'Delete a team that owns no zone (owners)',
    tags,
    security,
    request: { params: teamParam },
    responses: { 204: { description: 'Deleted' }, ...errors(403, 404, 409) },
  }),
  members: createRoute({
    method: 'get',
    path: '/teams/{name}/members',
    summary: "A team's members and their roles",
    tags,
    security,
    request: { params: teamParam },
    responses: { 200: { description: 'Members, by username', content: json(z.array(MemberSchema)) }, ...errors(404) },
  }),
  add: createRoute({
    method: 'post',
    path: '/teams/{name}/members',
    summary: 'Invite a user to the team with a role (owners); they become a member when they accept. A username nobody has is answered the same way, and its invitation never matches anyone',
    tags,
    security,
    request: { params: teamParam, body: { required: true, content: json(z.strictObject({ username: name, role: ROLE })) } },
    responses: { 201: { description: 'The pending invitation', content: json(TeamInvitationSchema) }, ...errors(400, 403, 404, 408, 409, 413) },
  }),
  invitations: createRoute({
    method: 'get',
    path: '/teams/{name}/invitations',
    summary: "The team's pending invitations (owners and admins)",
    tags,
    security,
    request: { params: teamParam },
    responses: { 200: { description: 'Invitations, by username', content: json(z.array(TeamInvitationSchema)) }, ...errors(404) },
  }),
  cancel: createRoute({
    method: 'delete',
    path: '/teams/{name}/invitations/{username}',
    summary: 'Cancel a pending invitation (owners)',
    tags,
    security,
    request: { params: memberParam },
    responses: { 204: { description: 'Cancelled' }, ...errors(404) },
  }),
  setRole: createRoute({
    method: 'put',
    path: '/teams/{name}/members/{username}',
    summary: "Change a member's role (owners); the last owner stays one",
    tags,
    security,
    request: { params: memberParam, body: { required: true, content: json(z.strictObject({ role: ROLE })) } },
    responses: { 200: { description: 'The member', content: json(MemberSchema) }, ...errors(400, 403, 404, 408, 409, 413) },
  }),
  removeMember: createRoute({
    method: 'delete',
    path: '/teams/{name}/members/{username}',
    summary: 'Remove a member (owners), or leave the team; the last owner cannot leave',
    tags,
    security,
    request: { params: memberParam },
    responses: { 204: { description: 'Removed' }, ...errors(403, 404, 409) },
  }),
  move: createRoute({
    method: 'put',
    path: '/domains/{name}/owner',
    summary: 'Move a zone, with its history, to a team or back to you (owners of both sides)',
    tags,
    security,
    request: {
      params: teamParam,
      body: { required: true, content: json(z.strictObject({ team: name.nullable().openapi({ description: 'The team to move the zone to; null: to you alone' }) })) },
    },
    responses: { 200: { description: 'Where the zone is now', content: json(z.object({ name: z.string(), team: z.string().nullable() })) }, ...errors(400, 403, 404, 408, 409, 413) },
  }),
  zoneEvents: createRoute({
    method: 'get',
    path: '/domains/{name}/team-events',
    summary: "The membership changes of the zone's team (who could reach it, with which role), newest first; empty for a zone of a user alone",
    tags,
    security,
    request: { params: teamParam, query: z.object(pageQuery) },
    responses: { 200: { description: 'Events, as the audit log shows them', headers: pageHeaders, content: json(z.array(AuditEventSchema)) }, ...errors(400, 404) },
  }),
};

/** The audit events that change who reaches a team's zones, and how. */
const MEMBERSHIP_KINDS = ['member-added', 'invitation-accepted', 'member-role-changed', 'member-removed'];

/** Teams change who reaches what: a token with a scope may read them but not change them (as it may not mint tokens). */
function unscoped(c: Context<ApiEnv>): void {
  if (isRestricted(c.get('principal').scope)) throw new Forbidden('a token with a scope cannot change teams, members or who owns a zone');
}

export function teamsApi(services: Services) {
  const { teams, zones, audit } = services;
  const actor = (c: Context<ApiEnv>) => ({ ...auditActor(c), user: c.get('principal').user });
  return createApi()
    .endpoint(routes.list, async (c) => {
      const q = c.req.valid('query');
      const p = pageParams(q);
      const { rows, total } = await teams.page(actor(c), p.window, q.all === 'true');
      setPageHeaders(c, total, p);
      return c.json(rows, 200);
    })
    .endpoint(routes.create, async (c) => {
      unscoped(c);
      return c.json(await teams.create(actor(c), c.req.valid('json').name), 201);
    })
    .endpoint(routes.get, async (c) => {
      const { members_list, ...team } = await teams.get(actor(c), c.req.valid('param').name);
      return c.json({ ...team, members_list: members_list.map(memberView) }, 200);
    })
    .endpoint(routes.remove, async (c) => {
      unscoped(c);
      await teams.remove(actor(c), c.req.valid('param').name);
      return c.body(null, 204);
    })
    .endpoint(routes.members, async (c) => c.json((await teams.members(actor(c), c.req.valid('param').name)).map(memberView), 200))
    .endpoint(routes.add, async (c) => {
      unscoped(c);
      return c.json(invitationView(await teams.invite(actor(c), c.req.valid('param').name, c.req.valid('json'))), 201);
    })
    .endpoint(routes.invitations, async (c) => c.json((await teams.invitations(actor(c), c.req.valid('param').name)).map(invitationView), 200))
    .endpoint(routes.cancel, async (c) => {
      unscoped(c);
      const { name: team, username } = c.req.valid('param');
      await teams.cancel(actor(c), team, username);
      return c.body(null, 204);
    })
    .endpoint(routes.setRole, async (c) => {
      unscoped(c);
      const { name: team, username } = c.req.valid('param');
      return c.json(memberView(await teams.setRole(actor(c), team, username, c.req.valid('json').role)), 200);
    })
    .endpoint(routes.removeMember, async (c) => {
      unscoped(c);
      const { name: team, username } = c.req.valid('param');
      await teams.removeMember(actor(c), team, username);
      return c.body(null, 204);
    })
    .endpoint(routes.zoneEvents, async (c) => {
      // Any member who may read the zone sees the role changes that touched it (its History shows them), where they came from only as the audit log shows it.
      const { zone } = pathZone(c);
      const p = pageParams(c.req.valid('query'));
      const { rows, total } = zone.team_id == null ? { rows: [], total: 0 } : await audit.ofTeam(c.get('principal').user, zone.team_id, MEMBERSHIP_KINDS, p.window);
      setPageHeaders(c, total, p);
      return c.json(rows.map(auditView), 200);
    })
    .endpoint(routes.move, async (c) => {
      unscoped(c);
      const { user, scope } = c.get('principal');
      const to = c.req.valid('json').team;
      const { zone, from } = await zones.move(user.id, pathZone(c), to, scope);
      const team = zone.team_id != null ? (to ?? '').trim().toLowerCase() : null;
      await audit.record({
        kind: 'zone-moved',
        actor: auditActor(c),
        ...(zone.team_id != null ? { team: { id: zone.team_id, name: team! } } : {}),
        detail: { zone: zone.name, from: from ?? user.username, to: team ?? user.username },
      });
      return c.json({ name: zone.name, team }, 200);
    });
}
