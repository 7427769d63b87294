/**
 * The caller's invitations into teams: `GET /invitations`, and accepting (`POST
 * /invitations/:team/accept`) or declining (`DELETE /invitations/:team`) one. Joining a team is the
 * user's own act, so a token with a scope may read the list but not answer it (as it may not mint
 * tokens). A team one is not invited to is 404, whether or not it exists.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden } from '../../core/errors';
import { isRestricted } from '../../core/scope';
import type { Services } from '../../services';
import type { InvitationRow } from '../../store/types';
import type { ApiEnv } from '../auth';
import { auditActor } from '../../http/audit-actor';
import { createApi, errors, json, security } from '../create-api';
import { TeamSchema } from './teams';

const tags = ['Teams'];

export const InvitationSchema = z
  .object({
    team: z.string().openapi({ example: 'ops' }),
    role: z.enum(['owner', 'admin', 'editor', 'viewer']).openapi({ description: 'The role you get by accepting' }),
    invited_by: z.string(),
    created_at: z.string(),
  })
  .openapi('Invitation');

const teamParam = z.object({ team: z.string().openapi({ param: { name: 'team', in: 'path' }, example: 'ops' }) });

const view = (i: InvitationRow) => ({ team: i.team_name, role: i.role, invited_by: i.invited_by, created_at: i.created_at });

const routes = {
  list: createRoute({
    method: 'get',
    path: '/invitations',
    summary: 'Your pending invitations into teams, newest first',
    tags,
    security,
    responses: { 200: { description: 'Invitations', content: json(z.array(InvitationSchema)) }, ...errors() },
  }),
  accept: createRoute({
    method: 'post',
    path: '/invitations/{team}/accept',
    summary: 'Accept an invitation: you become a member of the team with the role it offered',
    tags,
    security,
    request: { params: teamParam },
    responses: { 200: { description: 'The team you joined', content: json(TeamSchema) }, ...errors(404, 409) },
  }),
  decline: createRoute({
    method: 'delete',
    path: '/invitations/{team}',
    summary: 'Decline an invitation',
    tags,
    security,
    request: { params: teamParam },
    responses: { 204: { description: 'Declined' }, ...errors(404) },
  }),
};

function unscoped(c: Context<ApiEnv>): void {
  if (isRestricted(c.get('principal').scope)) throw new Forbidden('a token with a scope cannot accept or decline invitations: joining a team is an act of the account');
}

export function invitationsApi(services: Services) {
  const { teams } = services;
  const actor = (c: Context<ApiEnv>) => ({ ...auditActor(c), user: c.get('principal').user });
  return createApi()
    .endpoint(routes.list, async (c) => c.json((await teams.mine(actor(c))).map(view), 200))
    .endpoint(routes.accept, async (c) => {
      unscoped(c);
      return c.json(await teams.accept(actor(c), c.req.valid('param').team), 200);
    })
    .endpoint(routes.decline, async (c) => {
      unscoped(c);
      await teams.decline(actor(c), c.req.valid('param').team);
      return c.body(null, 204);
    });
}
