/**
 * The current user's own account: who they are, their password (changed with the
 * current one), and their dashboard sessions, which they see and end. A token with a scope may
 * read but not change any of it: it could otherwise lock its owner out.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden } from '../../core/errors';
import { isRestricted } from '../../core/scope';
import type { Services } from '../../services';
import { AccountSchema, PasswordChangeSchema, SessionSchema } from './account-schemas';
import { auditActor } from '../../http/audit-actor';
import type { ApiEnv } from '../auth';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { idParam, pathId } from '../path-id';

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

const TotpStatusSchema = z
  .object({
    totp: z.enum(['off', 'pending', 'on']).openapi({ description: 'pending: enrolment started, waiting for its first code' }),
    recovery_codes_left: z.number().int(),
  })
  .openapi('SecondFactors');
const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()).openapi({ description: 'Ten single-use codes, shown this once' }) }).openapi('RecoveryCodes');
const codeBody = z.strictObject({ code: z.string({ error: 'is required' }).max(64, 'must be at most 64 characters') });

const factors = createRoute({
  method: 'get',
  path: '/account/second-factors',
  summary: 'Your second factors: TOTP on, off or pending, and how many recovery codes are left',
  tags,
  security,
  responses: { 200: { description: 'Second factors', content: json(TotpStatusSchema) }, ...errors() },
});

const totpStart = createRoute({
  method: 'post',
  path: '/account/totp',
  summary: 'Start TOTP enrolment: a new secret and its otpauth:// URI (for a QR code), shown once; confirm with a code (needs a sign-in within the last 10 minutes)',
  tags,
  security,
  responses: { 200: { description: 'The secret', content: json(z.object({ secret: z.string(), otpauth_uri: z.string() })) }, ...errors(409) },
});

const totpConfirm = createRoute({
  method: 'post',
  path: '/account/totp/confirm',
  summary: 'Confirm TOTP enrolment with a current code; answers the 10 recovery codes, once (needs a sign-in within the last 10 minutes)',
  tags,
  security,
  request: { body: { required: true, content: json(codeBody) } },
  responses: { 200: { description: 'Two-factor sign-in is on', content: json(RecoveryCodesSchema) }, ...errors(400, 408, 409, 413) },
});

const totpRemove = createRoute({
  method: 'delete',
  path: '/account/totp',
  summary: 'Turn two-factor sign-in off (needs a sign-in within the last 10 minutes)',
  tags,
  security,
  responses: { 204: { description: 'Off' }, ...errors() },
});

const recoveryCodes = createRoute({
  method: 'post',
  path: '/account/recovery-codes',
  summary: 'New recovery codes; the old ones stop working (needs a sign-in within the last 10 minutes)',
  tags,
  security,
  responses: { 200: { description: 'The new codes', content: json(RecoveryCodesSchema) }, ...errors(409) },
});

const PasskeySchema = z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() }).openapi('Passkey');

const passkeys = createRoute({
  method: 'get',
  path: '/account/passkeys',
  summary: 'Your passkeys (register one from the dashboard: the browser makes it)',
  tags,
  security,
  responses: { 200: { description: 'Passkeys, oldest first', content: json(z.array(PasskeySchema)) }, ...errors() },
});

const removePasskey = createRoute({
  method: 'delete',
  path: '/account/passkeys/{id}',
  summary: 'Remove one of your passkeys (needs a sign-in within the last 10 minutes)',
  tags,
  security,
  request: {
    params: z.object({
      id: z
        .string()
        .max(1024)
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
  },
  responses: { 204: { description: 'Removed' }, ...errors(404) },
});

/** Changes to the account need a credential without a scope (the password, sessions), as minting tokens does. */
function unrestricted(c: Context<ApiEnv>): void {
  if (isRestricted(c.get('principal').scope)) throw new Forbidden('a token with a scope cannot change the password, second factors or sessions');
}

export function accountApi(services: Services) {
  const { users, secondFactors } = services;
  return createApi()
    .endpoint(factors, async (c) => c.json(await secondFactors.status(c.get('principal').user.id), 200))
    .endpoint(passkeys, async (c) =>
      c.json(
        (await services.passkeys.list(c.get('principal').user.id)).map((p) => ({ id: p.id, name: p.name, created_at: p.created_at, last_used_at: p.last_used_at })),
        200,
      ),
    )
    .endpoint(removePasskey, async (c) => {
      unrestricted(c);
      await secondFactors.requireRecentSignIn(c.get('principal').token.id, 'removing a passkey');
      await services.passkeys.remove(auditActor(c), c.req.valid('param').id);
      return c.body(null, 204);
    })
    .endpoint(totpStart, async (c) => {
      unrestricted(c);
      // A stale session that turned the factor on would lock the account's owner out.
      await secondFactors.requireRecentSignIn(c.get('principal').token.id, 'turning two-factor sign-in on');
      c.header('Cache-Control', 'no-store');
      return c.json(await secondFactors.startTotp(c.get('principal').user), 200);
    })
    .endpoint(totpConfirm, async (c) => {
      unrestricted(c);
      await secondFactors.requireRecentSignIn(c.get('principal').token.id, 'turning two-factor sign-in on');
      c.header('Cache-Control', 'no-store');
      return c.json({ recovery_codes: await secondFactors.confirmTotp(auditActor(c), c.req.valid('json').code) }, 200);
    })
    .endpoint(totpRemove, async (c) => {
      unrestricted(c);
      const { user, token } = c.get('principal');
      await secondFactors.requireRecentSignIn(token.id, 'turning two-factor sign-in off');
      await secondFactors.removeTotp(auditActor(c), user);
      return c.body(null, 204);
    })
    .endpoint(recoveryCodes, async (c) => {
      unrestricted(c);
      await secondFactors.requireRecentSignIn(c.get('principal').token.id, 'new recovery codes');
      c.header('Cache-Control', 'no-store');
      return c.json({ recovery_codes: await secondFactors.regenerateRecoveryCodes(auditActor(c)) }, 200);
    })
    .endpoint(account, (c) => {
      const { user } = c.get('principal');
      return c.json({ username: user.username, is_admin: user.is_admin, created_at: user.created_at }, 200);
    })
    .endpoint(password, async (c) => {
      unrestricted(c);
      const { current_password, new_password } = c.req.valid('json');
      await users.changePassword(auditActor(c), current_password, new_password, c.get('principal').token.id);
      return c.body(null, 204);
    })
    .endpoint(sessions, async (c) => {
      const { user, token } = c.get('principal');
      const p = pageParams(c.req.valid('query'));
      const { rows, total } = await users.sessions(user.id, p.window);
      setPageHeaders(c, total, p);
      return c.json(
        rows.map((s) => ({
          id: s.token_id,
          created_at: s.created_at,
          last_seen_at: s.last_seen_at,
          expires_at: s.expires_at,
          current: s.token_id === token.id,
          user_agent: s.user_agent ?? null,
          address: s.address ?? null,
        })),
        200,
      );
    })
    .endpoint(endSession, async (c) => {
      unrestricted(c);
      await users.endSession(auditActor(c), pathId(c.req.valid('param').id, 'session'));
      return c.body(null, 204);
    });
}
