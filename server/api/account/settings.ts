/**
 * Sign-in settings and single sign-on identities: an administrator turns password sign-in off for
 * everyone (once single sign-on is configured) and gives users an email address; each user lists
 * the identities linked to them (linked from their Account page, through the BFF) and unlinks one.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden, NotFound } from '../../core/errors';
import { isRestricted } from '../../core/scope';
import type { Services } from '../../services';
import { auditActor } from '../../http/audit-actor';
import type { ApiEnv } from '../auth';
import { createApi, errors, json, security } from '../create-api';
import { idParam, pathId } from '../path-id';

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

const SignInSettingsSchema = z
  .strictObject({
    password: z.boolean(required('true or false')).openapi({ description: 'false turns password sign-in off for everyone (needs single sign-on configured); passkeys and single sign-on stay open' }),
  })
  .openapi('SignInSettings');

const SignInSettingsView = z
  .object({
    password: z.boolean(),
    oidc: z.object({ name: z.string(), issuer: z.string() }).nullable().openapi({ description: 'Single sign-on as configured (OIDC_*), or null' }),
  })
  .openapi('SignInSettingsView');

/** A plain address: one @, no spaces or control characters; compared in lower case. */
const EMAIL = /^[^\s@\u0000-\u001f\u007f]{1,64}@[^\s@\u0000-\u001f\u007f]{1,189}$/;

const UserEmailSchema = z
  .strictObject({
    email: z
      .string(required('an email address or null'))
      .max(254, 'must be at most 254 characters')
      .refine((s) => EMAIL.test(s.trim()), 'must be an email address like alice@example.com')
      .nullable(),
  })
  .openapi('UserEmail');

const IdentitySchema = z.object({ id: z.number().int(), issuer: z.string(), email: z.string(), created_at: z.string(), last_used_at: z.string().nullable() }).openapi('Identity');

const tags = ['Sign-in settings'];

const getSettings = createRoute({
  method: 'get',
  path: '/settings/sign-in',
  summary: 'Which ways of signing in to the dashboard are open (administrators only)',
  tags,
  security,
  responses: { 200: { description: 'The sign-in settings', content: json(SignInSettingsView) }, ...errors(403) },
});

const putSettings = createRoute({
  method: 'put',
  path: '/settings/sign-in',
  summary: 'Turn password sign-in on or off for everyone (administrators only; audited)',
  tags,
  security,
  request: { body: { required: true, content: json(SignInSettingsSchema) } },
  responses: { 200: { description: 'The sign-in settings', content: json(SignInSettingsView) }, ...errors(400, 403, 408, 413) },
});

const putEmail = createRoute({
  method: 'put',
  path: '/users/{username}/email',
  summary:
    "Set (or clear with null) a user's email address: a first single sign-on whose verified email it is gets no new account but is told to link from the Account page (administrators only; needs a sign-in within the last 10 minutes)",
  tags,
  security,
  request: { params: z.object({ username: z.string().openapi({ param: { name: 'username', in: 'path' }, example: 'alice' }) }), body: { required: true, content: json(UserEmailSchema) } },
  responses: { 200: { description: 'The address', content: json(z.object({ username: z.string(), email: z.string().nullable() })) }, ...errors(400, 403, 404, 408, 409, 413) },
});

const unlinkIdentity = createRoute({
  method: 'delete',
  path: '/account/identities/{id}',
  summary: 'Unlink one of your single sign-on identities: it signs in nobody from then on (needs a sign-in within the last 10 minutes)',
  tags,
  security,
  request: { params: z.object({ id: idParam }) },
  responses: { 204: { description: 'Unlinked' }, ...errors(404) },
});

const listIdentities = createRoute({
  method: 'get',
  path: '/account/identities',
  summary: 'The single sign-on identities linked to your account',
  tags,
  security,
  responses: { 200: { description: 'Identities, oldest first', content: json(z.array(IdentitySchema)) }, ...errors() },
});

export function settingsApi(services: Services) {
  const { users, signInSettings, oidc } = services;

  /** `what`: a change, which needs a credential without a scope and, from a dashboard session, a sign-in within 10 minutes. */
  async function admin(c: Context<ApiEnv>, what?: string): Promise<void> {
    const { user, scope, token } = c.get('principal');
    users.requireAdmin(user);
    if (what === undefined) return;
    if (isRestricted(scope)) throw new Forbidden('a token with a scope cannot change sign-in settings');
    await services.secondFactors.requireRecentSignIn(token.id, what);
  }

  const view = async () => ({ password: await signInSettings.passwordEnabled(), oidc: oidc.configured ? { name: oidc.name!, issuer: oidc.issuer! } : null });

  return createApi()
    .endpoint(getSettings, async (c) => {
      await admin(c);
      return c.json(await view(), 200);
    })
    .endpoint(putSettings, async (c) => {
      await admin(c, 'changing how everyone signs in');
      await signInSettings.setPassword(auditActor(c), c.req.valid('json').password);
      return c.json(await view(), 200);
    })
    .endpoint(putEmail, async (c) => {
      await admin(c, "changing a user's email address");
      const name = c.req.valid('param').username;
      if (name.length > 64) throw new NotFound(`no user named ${name.slice(0, 64)}…`);
      const { user, email } = await services.users.setEmail(auditActor(c), name, c.req.valid('json').email);
      return c.json({ username: user.username, email }, 200);
    })
    .endpoint(listIdentities, async (c) => {
      const rows = await oidc.identities(c.get('principal').user.id);
      return c.json(
        rows.map((r) => ({ id: r.id, issuer: r.issuer, email: r.email, created_at: r.created_at, last_used_at: r.last_used_at })),
        200,
      );
    })
    .endpoint(unlinkIdentity, async (c) => {
      const { scope, token } = c.get('principal');
      if (isRestricted(scope)) throw new Forbidden('a token with a scope cannot change how its user signs in');
      await services.secondFactors.requireRecentSignIn(token.id, 'unlinking single sign-on');
      await oidc.unlink(auditActor(c), pathId(c.req.valid('param').id, 'identity'));
      return c.body(null, 204);
    });
}
