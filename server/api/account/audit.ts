/**
 * The account audit log, newest first: a user reads the events they did or that
 * concern them, an owner or admin of a team the team's events too, an administrator every event.
 * Filters narrow what the reader may see; they never widen it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import type { AuditKind } from '../../services/identity/audit';
import type { AuditEventRow } from '../../store/types';
import { AuditEventSchema, auditQuery } from './account-schemas';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';

/** An event as the API shows it: names, not ids; null where the event has nothing to say. */
export const auditView = (e: AuditEventRow) => ({
  id: e.id,
  created_at: e.created_at,
  kind: e.kind as AuditKind,
  actor: { username: e.actor_username || null, credential: e.credential },
  address: e.address || null,
  user_agent: e.user_agent || null,
  subject: e.subject_username || null,
  team: e.team_name || null,
  detail: e.detail,
});

const list = createRoute({
  method: 'get',
  path: '/audit',
  summary: 'Account events you may read, newest first: sign-ins, passwords, tokens, keys, memberships, user administration',
  tags: ['Audit'],
  security,
  request: { query: z.object({ ...pageQuery, ...auditQuery }) },
  responses: { 200: { description: 'Events', headers: pageHeaders, content: json(z.array(AuditEventSchema)) }, ...errors(400) },
});

export function auditApi(services: Services) {
  return createApi().endpoint(list, async (c) => {
    const { kind, username, team, since, until, ...page } = c.req.valid('query');
    const p = pageParams(page);
    const { rows, total } = await services.audit.list(c.get('principal').user, { kind, username, team, since, until }, p.window);
    setPageHeaders(c, total, p);
    return c.json(rows.map(auditView), 200);
  });
}
