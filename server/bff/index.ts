/**
 * The backend-for-frontend at /bff (DESIGN.md §6): sign-in, sign-out, the session the SPA
 * runs in, and the SPA's data calls forwarded to the public API with a token that stays here.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { clientAddress } from '../client-address';
import { z } from 'zod';
import { textProblem } from '../core/text-rules';
import type { Services } from '../services';
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from './cookie';
import { BffError } from './errors';
import { forwarder, type ApiFetch } from './forward';
import { checkOrigin, CSRF_HEADER, originCheck, requireSession, type BffEnv } from './guard';
import { ipUsage } from './ip-usage';
import { limitByAddress, type BucketRate } from '../api/rate-limit';
import { createSessions, DEFAULT_SESSION_TIMES, type ActiveSession, type SessionTimes } from './sessions';
import { createSignInThrottle, DEFAULT_THROTTLE, type ThrottleOptions } from './sign-in-throttle';

export interface BffOptions {
  /** RATE_LIMIT_ADDRESS: the BFF's own routes share the API's per-address buckets (DESIGN.md §17). */
  rateLimitAddress?: BucketRate | null;
  sessionTimes?: SessionTimes;
  throttle?: ThrottleOptions;
  now?: () => number;
  /** PUBLIC_URL's origin: the site the dashboard is served at, for the Origin check and the cookie. */
  publicOrigin?: string;
}

/** What GET /bff/session and POST /bff/sign-in answer: never the token. */
export interface SessionInfo {
  username: string;
  csrf_token: string;
  expires_at: string;
}

const SignIn = z.strictObject({ username: z.string().max(64).refine((s) => textProblem(s) === null), password: z.string().max(1024) });

/** The one message for any failed sign-in: it does not tell which of the two was wrong. */
export const WRONG_CREDENTIALS = 'Wrong username or password.';

export function bffApp(services: Services, apiFetch: ApiFetch, opts: BffOptions = {}) {
  const now = opts.now ?? Date.now;
  const sessions = createSessions(services, opts.sessionTimes ?? DEFAULT_SESSION_TIMES, now);
  const throttle = createSignInThrottle(services.store.signInFailures, opts.throttle ?? DEFAULT_THROTTLE, now);
  const info = (s: ActiveSession): SessionInfo => ({ username: s.username, csrf_token: s.row.csrf_token, expires_at: sessions.endsAt(s.row) });
  const session = requireSession(sessions);

  const app = new Hono<BffEnv>();
  app.use('*', async (c, next) => {
    // Behind a TLS-terminating proxy Node sees http://internal-host: PUBLIC_URL says what browsers see.
    c.set('siteOrigin', opts.publicOrigin ?? new URL(c.req.url).origin);
    await next();
    c.header('Cache-Control', 'no-store');
  });
  // Sign-in, sessions, ip-usage and the forwarded calls: per client address, as the API limits them.
  app.use('*', limitByAddress(opts.rateLimitAddress ?? null, services.store.sharedBuckets));

  app.post('/sign-in', originCheck, bodyLimit({ maxSize: 4096, onError: () => { throw new BffError(413, 'payload_too_large', 'request body is too large'); } }), async (c) => {
    let body: z.infer<typeof SignIn>;
    try {
      body = SignIn.parse(await c.req.json());
    } catch {
      throw new BffError(400, 'invalid_json', 'send {"username": "…", "password": "…"} as JSON');
    }
    const keys = [`user:${body.username.trim().toLowerCase()}`, `addr:${clientAddress(c) ?? 'unknown'}`];
    // The attempt is counted before the password is checked: parallel guesses cannot all pass.
    const wait = await throttle.reserve(keys);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      c.header('Retry-After', String(seconds));
      throw new BffError(429, 'too_many_attempts', `Too many failed sign-ins. Try again in ${seconds} s.`);
    }
    const user = await services.accounts.checkPassword(body.username, body.password);
    const from = { address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' };
    if (!user) {
      // The name tried, and whose account it is when there is one (its owner reads the attempt).
      const tried = body.username.trim().toLowerCase();
      const known = await services.store.users.byUsername(tried);
      await services.audit.record({ kind: 'sign-in-failed', actor: { username: '', credential: 'password', ...from }, subject: { id: known?.id ?? null, username: tried } });
      throw new BffError(401, 'invalid_credentials', WRONG_CREDENTIALS);
    }
    await throttle.succeeded(keys.slice(0, 1));
    await throttle.forgive(keys.slice(1));
    // A fresh session id at every sign-in (no fixation); a session the browser still held ends.
    const previous = await sessions.resume(readSessionCookie(c));
    if (previous) await sessions.end(previous.row);
    const { secret, row } = await sessions.start(user);
    await services.audit.record({
      kind: 'sign-in',
      actor: { userId: user.id, username: user.username, credential: 'password', ...from },
      subject: { id: user.id, username: user.username },
      detail: { session_id: row.token_id },
    });
    writeSessionCookie(c, secret);
    return c.json(info({ row, token: '', username: user.username }), 200);
  });

  app.get('/session', session, (c) => c.json(info(c.get('session')), 200));

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
  app.all('/api/*', (c) => forward(c));

  return app;
}
