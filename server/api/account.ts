/**
 * The current user's own account (issue 27): who they are, their password (changed with the
 * current one), and their dashboard sessions, which they see and end. A token with a scope may
 * read but not change any of it: it could otherwise lock its owner out.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden } from '../core/errors';
import { isRestricted } from '../core/scope';
import type { Services } from '../services';
import { AccountSchema, PasswordChangeSchema, SessionSchema } from './account-schemas';
import { auditActor } from './audit-actor';
import type { ApiEnv } from './auth';
import { createApi, errors, json, security } from './create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from './pagination';
import { idParam, pathId } from './path-id';

const tags = ['Account'];

const account = createRoute({
  method: 'get',
  path: '/account',
  summary: 'The current user',
  tags,
  security,
  responses: { 200: { description: 'The account', content: json(AccountSchema) }, ...errors() },
});

const password = createRoute({
  method: 'put',
  path: '/account/password',
  summary: 'Change your password; your other dashboard sessions end, this credential keeps working',
  tags,
  security,
  request: { body: { required: true, content: json(PasswordChangeSchema) } },
  responses: { 204: { description: 'Changed' }, ...errors(400, 408, 413) },
});

const sessions = createRoute({
  method: 'get',
  path: '/account/sessions',
  summary: 'Your dashboard sessions, newest first',
  tags,
  security,
  request: { query: z.object(pageQuery) },
  responses: { 200: { description: 'Sessions', headers: pageHeaders, content: json(z.array(SessionSchema)) }, ...errors(400) },
});

const endSession = createRoute({
  method: 'delete',
  path: '/account/sessions/{id}',
  summary: 'End one of your dashboard sessions (signs that browser out)',
  tags,
  security,
  request: { params: z.object({ id: idParam }) },
  responses: { 204: { description: 'Ended' }, ...errors(404) },
});

/** Changes to the account need a credential without a scope (the password, sessions), as minting tokens does. */
function unrestricted(c: Context<ApiEnv>): void {
  if (isRestricted(c.get('principal').scope)) throw new Forbidden('a token with a scope cannot change the password or end sessions');
}

export function accountApi(services: Services) {
  const { users } = services;
  return createApi()
    .openapi(account, (c) => {
      const { user } = c.get('principal');
      return c.json({ username: user.username, is_admin: user.is_admin, created_at: user.created_at }, 200);
    })
    .openapi(password, async (c) => {
      unrestricted(c);
      const { current_password, new_password } = c.req.valid('json');
      await users.changePassword(auditActor(c), current_password, new_password, c.get('principal').token.id);
      return c.body(null, 204);
    })
    .openapi(sessions, async (c) => {
      const { user, token } = c.get('principal');
      const p = pageParams(c.req.valid('query'));
      const { rows, total } = await users.sessions(user.id, p.window);
      setPageHeaders(c, total, p);
      return c.json(
        rows.map((s) => ({ id: s.token_id, created_at: s.created_at, last_seen_at: s.last_seen_at, expires_at: s.expires_at, current: s.token_id === token.id })),
        200,
      );
    })
    .openapi(endSession, async (c) => {
      unrestricted(c);
      await users.endSession(auditActor(c), pathId(c.req.valid('param').id, 'session'));
      return c.body(null, 204);
    });
}
