/**
 * User administration, for administrators only: list, create with a one-time password,
 * grant or revoke admin rights, disable or enable, reset a password or the second factors. Each
 * change is in the audit log. A token with a scope may list users but change none: a new
 * administrator's password would be a credential wider than its scope. From a dashboard session,
 * every change needs a sign-in within the last 10 minutes.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden, NotFound } from '../../core/errors';
import { isRestricted } from '../../core/scope';
import type { Services } from '../../services';
import type { UserRow } from '../../store/types';
import { NewPasswordSchema, UserCreatedSchema, UserCreateSchema, UserSchema, UserUpdateSchema } from './account-schemas';
import { auditActor } from '../../http/audit-actor';
import type { ApiEnv } from '../auth';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';

const tags = ['Users'];

/** A user as an administrator sees one: never the password hash. */
export const userView = (u: UserRow) => ({ username: u.username, is_admin: u.is_admin, disabled: u.disabled_at !== null, created_at: u.created_at });

const usernameParam = z.object({ username: z.string().openapi({ param: { name: 'username', in: 'path' }, example: 'alice' }) });

const list = createRoute({
  method: 'get',
  path: '/users',
  summary: 'List users by name (administrators only)',
  tags,
  security,
  request: {
    query: z.object({
      ...pageQuery,
      search: z
        .string()
        .max(64, 'must be at most 64 characters')
        .optional()
        .openapi({ param: { name: 'search', in: 'query' }, description: 'Only users whose name contains this' }),
    }),
  },
  responses: { 200: { description: 'Users', headers: pageHeaders, content: json(z.array(UserSchema)) }, ...errors(400) },
});

const create = createRoute({
  method: 'post',
  path: '/users',
  summary: 'Create a user with a one-time password, shown in this response only (administrators only; needs a sign-in within the last 10 minutes)',
  tags,
  security,
  request: { body: { required: true, content: json(UserCreateSchema) } },
  responses: { 201: { description: 'The new user and their password', content: json(UserCreatedSchema) }, ...errors(400, 408, 409, 413) },
});

const update = createRoute({
  method: 'patch',
  path: '/users/{username}',
  summary: 'Grant or revoke admin rights, disable or enable a user (administrators only; not on your own account; needs a sign-in within the last 10 minutes)',
  tags,
  security,
  request: { params: usernameParam, body: { required: true, content: json(UserUpdateSchema) } },
  responses: { 200: { description: 'The user', content: json(UserSchema) }, ...errors(400, 404, 408, 409, 413) },
});

const reset = createRoute({
  method: 'post',
  path: '/users/{username}/password',
  summary: 'Give a user a new one-time password; every dashboard session of theirs ends (administrators only; needs a sign-in within the last 10 minutes)',
  tags,
  security,
  request: { params: usernameParam },
  responses: { 200: { description: 'The new password, shown in this response only', content: json(NewPasswordSchema) }, ...errors(404) },
});

const resetFactors = createRoute({
  method: 'delete',
  path: '/users/{username}/second-factors',
  summary:
    "Remove a user's second factors (TOTP with its recovery codes, and every passkey) and end their dashboard sessions, e.g. after a lost phone (administrators only; needs a sign-in within the last 10 minutes; audited)",
  tags,
  security,
  request: { params: usernameParam },
  responses: { 204: { description: 'Removed' }, ...errors(404) },
});

export function usersApi(services: Services) {
  const { users, secondFactors } = services;

  /** The request's user must be an administrator. */
  function admin(c: Context<ApiEnv>): void {
    users.requireAdmin(c.get('principal').user);
  }

  /**
   * An administrator's act on a user: with a credential without a scope, and from a dashboard
   * session only within 10 minutes of a sign-in (a forgotten browser must not mint administrators).
   */
  async function adminAct(c: Context<ApiEnv>, what: string): Promise<void> {
    const { user, scope, token } = c.get('principal');
    users.requireAdmin(user);
    if (isRestricted(scope)) throw new Forbidden('a token with a scope cannot manage users');
    await secondFactors.requireRecentSignIn(token.id, what);
  }

  /** A path's username; one that no user could have is simply not found. */
  const pathUser = (raw: string) => {
    if (raw.length > 64) throw new NotFound(`no user named ${raw.slice(0, 64)}…`);
    return raw;
  };

  return createApi()
    .endpoint(list, async (c) => {
      admin(c);
      const q = c.req.valid('query');
      const p = pageParams(q);
      const { rows, total } = await users.page(p.window, q.search);
      setPageHeaders(c, total, p);
      return c.json(rows.map(userView), 200);
    })
    .endpoint(create, async (c) => {
      await adminAct(c, 'creating a user');
      const { username, is_admin } = c.req.valid('json');
      const { user, password } = await users.create(auditActor(c), username, { isAdmin: is_admin ?? false });
      // The password must not linger in any cache between here and its reader.
      c.header('Cache-Control', 'no-store');
      return c.json({ ...userView(user), password }, 201);
    })
    .endpoint(update, async (c) => {
      await adminAct(c, 'changing a user');
      const user = await users.update(auditActor(c), pathUser(c.req.valid('param').username), c.req.valid('json'));
      return c.json(userView(user), 200);
    })
    .endpoint(reset, async (c) => {
      await adminAct(c, "resetting a user's password");
      const { password } = await users.resetPassword(auditActor(c), pathUser(c.req.valid('param').username));
      c.header('Cache-Control', 'no-store');
      return c.json({ password }, 200);
    })
    .endpoint(resetFactors, async (c) => {
      await adminAct(c, "resetting a user's second factors");
      await users.resetSecondFactors(auditActor(c), pathUser(c.req.valid('param').username));
      return c.body(null, 204);
    });
}
