/**
 * The backend-for-frontend at /bff: sign-in, sign-out, the session the SPA
 * runs in, and the SPA's data calls forwarded to the public API with a token that stays here.
 */
import { Hono } from 'hono';
import { clientAddress, requestOrigin } from '../http/client-address';
import { z } from 'zod';
import { textProblem } from '../core/text-rules';
import type { Services } from '../services';
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from './cookie';
import { BffError } from './errors';
import { jsonBody } from './json-body';
import { forwarder, type ApiFetch } from './forward';
import { checkOrigin, CSRF_HEADER, hostAllowed, originCheck, requireSession, type BffEnv } from './guard';
import { ipUsage } from './ip-usage';
import { oidcApp } from './oidc';
import { limitByAddress, type BucketRate } from '../http/rate-limit';
import { DEFAULT_SESSION_TIMES, type ActiveSession, type SessionTimes } from '../services/identity/sessions';
import { DEFAULT_THROTTLE, type ThrottleOptions } from '../services/identity/sign-in-throttle';
import { requireRecent, type Factor } from '../services/identity/second-factors';
import type { SessionRow } from '../store/types';
import { rpOf } from '../services/identity/passkeys';

export interface BffOptions {
  /** RATE_LIMIT_ADDRESS: the BFF's own routes share the API's per-address buckets. */
  rateLimitAddress?: BucketRate | null;
  sessionTimes?: SessionTimes;
  throttle?: ThrottleOptions;
  now?: () => number;
  /** PUBLIC_URL's origin: the site the dashboard is served at, for the Origin check and the cookie. */
  publicOrigin?: string;
  /** ALLOWED_HOSTS: names the dashboard may be opened at without PUBLIC_URL, besides IP literals and localhost. */
  allowedHosts?: readonly string[];
  /** REQUIRE_2FA: a user without a second factor reaches only their account (to enrol one). */
  requireTwoFactor?: boolean;
}

/** What GET /bff/session and POST /bff/sign-in answer: never the token. */
export interface SessionInfo {
  username: string;
  csrf_token: string;
  expires_at: string;
  /** REQUIRE_2FA and no second factor yet: the dashboard leads to enrolment and reaches nothing else. */
  enrolment_required: boolean;
}

const SignIn = z.strictObject({ username: z.string().max(64).refine((s) => textProblem(s) === null), password: z.string().max(1024), code: z.string().max(64).optional() });
const Reauthenticate = z.strictObject({ password: z.string().max(1024), code: z.string().max(64).optional() });

/** The one message for any failed sign-in: it does not tell which of the two was wrong. */
export const WRONG_CREDENTIALS = 'Wrong username or password.';

export function bffApp(services: Services, apiFetch: ApiFetch, opts: BffOptions = {}) {
  const now = opts.now ?? Date.now;
  const sessions = services.sessions(opts.sessionTimes ?? DEFAULT_SESSION_TIMES, now);
  const throttle = services.signInThrottle(opts.throttle ?? DEFAULT_THROTTLE, now);
  /**
   * Whether REQUIRE_2FA holds this session's user at enrolment: no TOTP and no passkey yet. A
   * session begun through single sign-on is exempt only with OIDC_SKIP_2FA: the provider then
   * answers for the second factor.
   */
  const mustEnrol = async (row: SessionRow) =>
    Boolean(opts.requireTwoFactor) &&
    !(row.sign_in_method === 'oidc' && services.oidc.skipsSecondFactor) &&
    !(await services.secondFactors.required(row.user_id)) &&
    (await services.passkeys.list(row.user_id)).length === 0;
  /** Password sign-in turned off for everyone by an administrator (passkeys and single sign-on stay open). */
  const passwordOff = async () => {
    if (!(await services.signInSettings.passwordEnabled())) {
      throw new BffError(403, 'password_sign_in_disabled', 'Password sign-in is turned off on this server: sign in with single sign-on or a passkey.');
    }
  };
  const rp = (c: { get(key: 'siteOrigin'): string }) => rpOf(c.get('siteOrigin'));
  const passkeyBody = jsonBody(16_384);
  const json = async <T>(c: { req: { json(): Promise<unknown> } }, schema: z.ZodType<T>, what: string): Promise<T> => {
    try {
      return schema.parse(await c.req.json());
    } catch {
      throw new BffError(400, 'invalid_json', `send ${what} as JSON`);
    }
  };
  const info = async (s: ActiveSession): Promise<SessionInfo> => ({ username: s.username, csrf_token: s.row.csrf_token, expires_at: sessions.endsAt(s.row), enrolment_required: await mustEnrol(s.row) });
  const session = requireSession(sessions);

  const app = new Hono<BffEnv>();
  app.use('*', async (c, next) => {
    // Behind a TLS-terminating proxy Node sees http://internal-host: PUBLIC_URL says what browsers see.
    // Without it, the site is the request's own (or a TRUST_PROXY proxy's word for it), and only at
    // a host the operator listed: a DNS-rebinding page (its own name, our address) is refused.
    const origin = opts.publicOrigin ?? requestOrigin(c);
    if (!opts.publicOrigin && !hostAllowed(new URL(origin).hostname, opts.allowedHosts ?? [])) {
      throw new BffError(403, 'host_not_allowed', `the dashboard is not served at ${new URL(origin).hostname}: set PUBLIC_URL to the address users open it at (or list the name in ALLOWED_HOSTS)`);
    }
    c.set('siteOrigin', origin);
    await next();
    c.header('Cache-Control', 'no-store');
  });
  // Sign-in, sessions, ip-usage and the forwarded calls: per client address, as the API limits them.
  app.use('*', limitByAddress(opts.rateLimitAddress ?? null, services.store.sharedBuckets));

  app.post('/sign-in', originCheck, jsonBody(4096), async (c) => {
    let body: z.infer<typeof SignIn>;
    try {
      body = SignIn.parse(await c.req.json());
    } catch {
      throw new BffError(400, 'invalid_json', 'send {"username": "…", "password": "…"} as JSON');
    }
    await passwordOff();
    const attempt = { username: body.username, address: clientAddress(c) };
    // The attempt is counted before the password is checked: parallel guesses cannot all pass.
    const wait = await throttle.reserve(attempt);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      c.header('Retry-After', String(seconds));
      throw new BffError(429, 'too_many_attempts', `Too many failed sign-ins. Try again in ${seconds} s.`);
    }
    const checked = await services.accounts.checkPassword(body.username, body.password);
    const from = { address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' };
    // A right password is not a guess from this address: its reservation goes back now. The second
    // factor then counts under the user's keys, as passwords do: wrong codes wait too.
    if (checked) await throttle.passwordRight(attempt);
    const factor = checked ? await secondFactor(checked.id, body.code) : undefined;
    if (checked && factor === null) {
      await services.audit.record({ kind: 'sign-in-failed', actor: { username: '', credential: 'password', ...from }, subject: { id: checked.id, username: checked.username }, detail: { factor: 'totp' } });
      throw new BffError(401, 'invalid_second_factor', 'Wrong code. Enter the current code of your authenticator app, or an unused recovery code.');
    }
    if (checked && factor === 'missing') {
      // The password was right: not a failed guess (every wrong password still counts, and so does every wrong code).
      await throttle.notAGuess(attempt, { addressForgiven: true });
      throw new BffError(401, 'second_factor_required', 'Enter the code from your authenticator app, or a recovery code.');
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
    // A fresh session id at every sign-in (no fixation); a session the browser still held ends.
    const previous = await sessions.resume(readSessionCookie(c));
    if (previous) await sessions.end(previous.row);
    const { secret, row } = await sessions.start(user);
    await services.audit.record({
      kind: 'sign-in',
      actor: { userId: user.id, username: user.username, credential: 'password', ...from },
      subject: { id: user.id, username: user.username },
      detail: { session_id: row.token_id, ...(factor ? { factor } : {}) },
    });
    writeSessionCookie(c, secret);
    return c.json(await info({ row, token: '', username: user.username }), 200);
  });

  /** The factor a sign-in's code proves; 'missing' when one is needed and none came; null for a wrong one; undefined when none is needed. */
  async function secondFactor(userId: number, code: string | undefined): Promise<Factor | 'missing' | null | undefined> {
    if (!(await services.secondFactors.required(userId))) return undefined;
    if (code === undefined || code.trim() === '') return 'missing';
    return services.secondFactors.verify(userId, code);
  }

  /**
   * Asked again: a sensitive act more than 10 minutes after sign-in needs the
   * password (and second factor) once more. Throttled like a sign-in.
   */
  app.post('/reauthenticate', originCheck, session, jsonBody(4096), async (c) => {
    const s = c.get('session');
    if (!sessions.csrfMatches(s.row, c.req.header(CSRF_HEADER))) throw new BffError(403, 'csrf', `missing or wrong ${CSRF_HEADER} header; reload the page`);
    let body: z.infer<typeof Reauthenticate>;
    try {
      body = Reauthenticate.parse(await c.req.json());
    } catch {
      throw new BffError(400, 'invalid_json', 'send {"password": "…"} as JSON (and "code" with two-factor sign-in)');
    }
    await passwordOff();
    const attempt = { username: s.username, address: clientAddress(c) };
    const wait = await throttle.reserve(attempt);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      c.header('Retry-After', String(seconds));
      throw new BffError(429, 'too_many_attempts', `Too many failed attempts. Try again in ${seconds} s.`);
    }
    const user = await services.accounts.checkPassword(s.username, body.password);
    const factor = user && user.id === s.row.user_id ? await secondFactor(user.id, body.code) : null;
    if (!user || user.id !== s.row.user_id || factor === null) throw new BffError(401, 'invalid_credentials', factor === null && user ? 'Wrong code.' : 'Wrong password.');
    if (factor === 'missing') {
      // The password was right: not a failed guess.
      await throttle.notAGuess(attempt);
      throw new BffError(401, 'second_factor_required', 'Enter the code from your authenticator app, or a recovery code.');
    }
    await throttle.succeeded(attempt);
    await throttle.passwordRight(attempt);
    await sessions.reauthenticated(s.row);
    await services.audit.record({
      kind: 'reauthenticated',
      actor: { userId: user.id, username: user.username, credential: 'session', address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' },
      subject: { id: user.id, username: user.username },
      ...(factor ? { detail: { factor } } : {}),
    });
    return c.body(null, 204);
  });

  app.get('/session', session, async (c) => c.json(await info(c.get('session')), 200));

  /** What the sign-in page offers (no session needed): password, passkey, single sign-on and its label. */
  app.get('/sign-in-methods', async (c) => c.json(await services.signInSettings.methods(), 200));

  // Single sign-on (OpenID Connect): /bff/oidc/start, /callback, /link and /second-factor.
  app.route('/oidc', oidcApp(services, { sessions, throttle, now, info }));

  // Passkeys (WebAuthn): registered from a signed-in session, then a sign-in on their own.
  // Adding a passkey adds a way in that outlives a password change: a fresh sign-in only, as for a token.
  app.post('/passkeys/registration-options', originCheck, session, async (c) => {
    const s = c.get('session');
    requireRecent(s.row, now(), 'adding a passkey');
    return c.json(await services.passkeys.registrationOptions({ id: s.row.user_id, username: s.username }, rp(c)), 200);
  });

  app.post('/passkeys', originCheck, session, passkeyBody, async (c) => {
    const s = c.get('session');
    requireRecent(s.row, now(), 'adding a passkey');
    const body = await json(c, z.object({ name: z.unknown(), response: z.record(z.string(), z.unknown()) }), '{"name": "…", "response": {…}} (the browser\'s registration response)');
    const actor = { userId: s.row.user_id, username: s.username, credential: 'session', address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' };
    const key = await services.passkeys.register(actor, body.name, body.response as never, rp(c));
    return c.json({ id: key.id, name: key.name, created_at: key.created_at, last_used_at: key.last_used_at }, 201);
  });

  app.post('/passkey-sign-in/options', originCheck, async (c) => c.json(await services.passkeys.authenticationOptions(rp(c)), 200));

  app.post('/passkey-sign-in', originCheck, passkeyBody, async (c) => {
    const body = await json(c, z.object({ response: z.record(z.string(), z.unknown()) }), '{"response": {…}} (the browser\'s authentication response)');
    const attempt = { address: clientAddress(c) };
    const wait = await throttle.reserve(attempt);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      c.header('Retry-After', String(seconds));
      throw new BffError(429, 'too_many_attempts', `Too many failed sign-ins. Try again in ${seconds} s.`);
    }
    const from = { address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' };
    const proved = await services.passkeys.authenticate(body.response as never, rp(c));
    if (!proved) {
      await services.audit.record({ kind: 'sign-in-failed', actor: { username: '', credential: 'passkey', ...from }, detail: { factor: 'passkey' } });
      throw new BffError(401, 'invalid_passkey', 'This passkey does not sign in here. Try another one, or your password.');
    }
    await throttle.notAGuess(attempt);
    const { user, passkey } = proved;
    const previous = await sessions.resume(readSessionCookie(c));
    if (previous) await sessions.end(previous.row);
    const { secret, row } = await sessions.start(user, 'passkey');
    await services.audit.record({
      kind: 'sign-in',
      actor: { userId: user.id, username: user.username, credential: 'passkey', ...from },
      subject: { id: user.id, username: user.username },
      detail: { session_id: row.token_id, factor: 'passkey', passkey: passkey.name },
    });
    writeSessionCookie(c, secret);
    return c.json(await info({ row, token: '', username: user.username }), 200);
  });

  app.post('/sign-out', async (c) => {
    checkOrigin(c);
    const s = await sessions.resume(readSessionCookie(c));
    if (s) {
      if (!sessions.csrfMatches(s.row, c.req.header(CSRF_HEADER))) throw new BffError(403, 'csrf', `missing or wrong ${CSRF_HEADER} header; reload the page`);
      await sessions.end(s.row);
      await services.audit.record({
        kind: 'sign-out',
        actor: { userId: s.row.user_id, username: s.username, credential: 'session', address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' },
        subject: { id: s.row.user_id, username: s.username },
        detail: { session_id: s.row.token_id },
      });
    }
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  app.get('/ip-usage', session, async (c) => c.json(await ipUsage(services, c.get('session').row.user_id), 200));

  const forward = forwarder(apiFetch, sessions);
  app.use('/api/*', originCheck, session);
  // REQUIRE_2FA: until a second factor is enrolled, only the account (to enrol one) is reachable.
  app.use('/api/*', async (c, next) => {
    if (opts.requireTwoFactor && !/^\/bff\/api\/account(\/|$)/.test(c.req.path) && (await mustEnrol(c.get('session').row))) {
      throw new BffError(403, 'enrolment_required', 'Set up two-factor sign-in on your Account page first: this server requires it.');
    }
    await next();
  });
  app.all('/api/*', (c) => forward(c));

  return app;
}
