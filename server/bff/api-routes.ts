/**
 * The SPA's data calls, `/bff/api/*`: a session and its CSRF token, under REQUIRE_2FA the
 * enrolment of a second factor first, a password of the user's own (own-password.ts), then the call forwarded to the public API (forward.ts).
 */
import { Hono } from 'hono';
import type { BffDeps } from './bff-deps';
import { BffError } from './errors';
import { forwarder, type ApiFetch } from './forward';
import { originCheck, requireSession, type BffEnv } from './guard';

export function apiRoutes(deps: BffDeps, apiFetch: ApiFetch, requireTwoFactor: boolean) {
  const forward = forwarder(apiFetch, deps.sessions);
  const app = new Hono<BffEnv>();
  app.use('*', originCheck, requireSession(deps.sessions));
  // REQUIRE_2FA: until a second factor is enrolled, only the account (to enrol one) is reachable.
  app.use('*', async (c, next) => {
    if (requireTwoFactor && !/^\/bff\/api\/account(\/|$)/.test(c.req.path) && (await deps.mustEnrol(c.get('session').row))) {
      throw new BffError(403, 'enrolment_required', 'Set up two-factor sign-in on your Account page first: this server requires it.');
    }
    await next();
  });
  app.use('*', async (c, next) => {
    await deps.requireOwnPassword(c.get('session').row, c.req.method, c.req.path);
    await next();
  });
  app.all('*', (c) => forward(c));
  return app;
}
