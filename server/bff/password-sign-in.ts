/**
 * Signing in with a password (and the second factor when the user has one), and giving it again
 * for a sensitive act: `POST /bff/sign-in` and `POST /bff/reauthenticate`, both throttled.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { textProblem } from '../core/text-rules';
import { clientAddress } from '../http/client-address';
import type { Factor } from '../services/identity/second-factors';
import type { BffDeps } from './bff-deps';
import { BffError } from './errors';
import { originCheck, requireSession, type BffEnv } from './guard';
import { jsonBody, parsedBody } from './json-body';
import { beginSession, requestFrom, reserveTry } from './signing-in';

const SignIn = z.strictObject({
  username: z
    .string()
    .max(64)
    .refine((s) => textProblem(s) === null),
  password: z.string().max(1024),
  code: z.string().max(64).optional(),
});
const Reauthenticate = z.strictObject({ password: z.string().max(1024), code: z.string().max(64).optional() });

/** The one message for any failed sign-in: it does not tell which of the two was wrong. */
export const WRONG_CREDENTIALS = 'Wrong username or password.';

const SECOND_FACTOR_REQUIRED = 'Enter the code from your authenticator app, or a recovery code.';

/** Password sign-in turned off for everyone by an administrator (passkeys and single sign-on stay open). */
async function passwordOff({ services }: BffDeps): Promise<void> {
  if (!(await services.signInSettings.passwordEnabled())) {
    throw new BffError(403, 'password_sign_in_disabled', 'Password sign-in is turned off on this server: sign in with single sign-on or a passkey.');
  }
}

/** The factor a sign-in's code proves; 'missing' when one is needed and none came; null for a wrong one; undefined when none is needed. */
async function secondFactor({ services }: BffDeps, userId: number, code: string | undefined): Promise<Factor | 'missing' | null | undefined> {
  if (!(await services.secondFactors.required(userId))) return undefined;
  if (code === undefined || code.trim() === '') return 'missing';
  return services.secondFactors.verify(userId, code);
}

export function passwordRoutes(deps: BffDeps) {
  const { services, sessions, throttle } = deps;
  const app = new Hono<BffEnv>();

  app.post('/sign-in', originCheck, jsonBody(4096), async (c) => {
    const body = await parsedBody(c, SignIn, 'send {"username": "…", "password": "…"} as JSON');
    await passwordOff(deps);
    const attempt = { username: body.username, address: clientAddress(c) };
    await reserveTry(c, deps, attempt, 'sign-ins');
    const checked = await services.accounts.checkPassword(body.username, body.password);
    const from = requestFrom(c);
    // A right password is not a guess from this address: its reservation goes back now. The second
    // factor then counts under the user's keys, as passwords do: wrong codes wait too.
    if (checked) await throttle.passwordRight(attempt);
    const factor = checked ? await secondFactor(deps, checked.id, body.code) : undefined;
    if (checked && factor === null) {
      await services.audit.record({
        kind: 'sign-in-failed',
        actor: { username: '', credential: 'password', ...from },
        subject: { id: checked.id, username: checked.username },
        detail: { factor: 'totp' },
      });
      throw new BffError(401, 'invalid_second_factor', 'Wrong code. Enter the current code of your authenticator app, or an unused recovery code.');
    }
    if (checked && factor === 'missing') {
      // The password was right: not a failed guess (every wrong password still counts, and so does every wrong code).
      await throttle.notAGuess(attempt, { addressForgiven: true });
      throw new BffError(401, 'second_factor_required', SECOND_FACTOR_REQUIRED);
    }
    const user = checked;
    if (!user) {
      // The name tried, and whose account it is when there is one (its owner reads the attempt).
      const tried = body.username.trim().toLowerCase();
      const known = await services.store.users.byUsername(tried);
      await services.audit.record({ kind: 'sign-in-failed', actor: { username: '', credential: 'password', ...from }, subject: { id: known?.id ?? null, username: tried } });
      throw new BffError(401, 'invalid_credentials', WRONG_CREDENTIALS);
    }
    await throttle.succeeded(attempt);
    const session = await beginSession(c, deps, user, 'password', factor ? { factor } : {});
    return c.json(await deps.info(session), 200);
  });

  /**
   * Asked again: a sensitive act more than 10 minutes after sign-in needs the
   * password (and second factor) once more. Throttled like a sign-in.
   */
  app.post('/reauthenticate', originCheck, requireSession(sessions), jsonBody(4096), async (c) => {
    // requireSession checked the session's CSRF token.
    const s = c.get('session');
    const body = await parsedBody(c, Reauthenticate, 'send {"password": "…"} as JSON (and "code" with two-factor sign-in)');
    await passwordOff(deps);
    const attempt = { username: s.username, address: clientAddress(c) };
    await reserveTry(c, deps, attempt, 'attempts');
    const user = await services.accounts.checkPassword(s.username, body.password);
    const factor = user && user.id === s.row.user_id ? await secondFactor(deps, user.id, body.code) : null;
    if (!user || user.id !== s.row.user_id || factor === null) throw new BffError(401, 'invalid_credentials', factor === null && user ? 'Wrong code.' : 'Wrong password.');
    if (factor === 'missing') {
      // The password was right: not a failed guess.
      await throttle.notAGuess(attempt);
      throw new BffError(401, 'second_factor_required', SECOND_FACTOR_REQUIRED);
    }
    await throttle.succeeded(attempt);
    await throttle.passwordRight(attempt);
    await sessions.reauthenticated(s.row);
    await services.audit.record({
      kind: 'reauthenticated',
      actor: { userId: user.id, username: user.username, credential: 'session', ...requestFrom(c) },
      subject: { id: user.id, username: user.username },
      ...(factor ? { detail: { factor } } : {}),
    });
    return c.body(null, 204);
  });

  return app;
}
