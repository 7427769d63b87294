/**
 * The session the dashboard runs in: what it answers (`GET /bff/session`), the ways in the sign-in
 * page offers, signing out, and the IPs page's cross-reference, which needs a session.
 */
import { Hono } from 'hono';
import type { BffDeps } from './bff-deps';
import { clearSessionCookie, readSessionCookie } from './cookie';
import { checkOrigin, csrfRefused, CSRF_HEADER, requireSession, type BffEnv } from './guard';
import { ipUsage } from './ip-usage';
import { requestFrom } from './signing-in';

export function sessionRoutes(deps: BffDeps) {
  const { services, sessions } = deps;
  const session = requireSession(sessions);
  const app = new Hono<BffEnv>();

  app.get('/session', session, async (c) => c.json(await deps.info(c.get('session')), 200));

  /** What the sign-in page offers (no session needed): password, passkey, single sign-on and its label. */
  app.get('/sign-in-methods', async (c) => c.json(await services.signInSettings.methods(), 200));

  app.post('/sign-out', async (c) => {
    checkOrigin(c);
    const s = await sessions.resume(readSessionCookie(c));
    if (s) {
      if (!sessions.csrfMatches(s.row, c.req.header(CSRF_HEADER))) throw csrfRefused();
      await sessions.end(s.row);
      await services.audit.record({
        kind: 'sign-out',
        actor: { userId: s.row.user_id, username: s.username, credential: 'session', ...requestFrom(c) },
        subject: { id: s.row.user_id, username: s.username },
        detail: { session_id: s.row.token_id },
      });
    }
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  app.get('/ip-usage', session, async (c) => {
    await deps.requireOwnPassword(c.get('session').row, c.req.method, c.req.path);
    return c.json(await ipUsage(services, c.get('session').row.user_id), 200);
  });

  return app;
}
