/**
 * The backend-for-frontend at /bff: sign-in, sign-out, the session the SPA runs in, and the
 * SPA's data calls forwarded to the public API with a token that stays here. bffApp wires the
 * route groups, each a file of its own, over one BffDeps.
 */
import { Hono } from 'hono';
import { limitByAddress, type BucketRate } from '../http/rate-limit';
import type { Services } from '../services';
import { DEFAULT_SESSION_TIMES, type SessionTimes } from '../services/identity/sessions';
import { DEFAULT_THROTTLE, type ThrottleOptions } from '../services/identity/sign-in-throttle';
import type { SessionRow } from '../store/types';
import { apiRoutes } from './api-routes';
import type { BffDeps } from './bff-deps';
import type { ApiFetch } from './forward';
import { siteCheck, type BffEnv } from './guard';
import { oidcApp } from './oidc';
import { passkeyRoutes } from './passkey-routes';
import { passwordRoutes } from './password-sign-in';
import { requireOwnPassword } from './own-password';
import { sessionRoutes } from './session-routes';
import { setupRoutes } from './setup-routes';
import type { ReadinessSettings } from '../services/readiness';

export type { SessionInfo } from './bff-deps';

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
  /** What "before real use" reads of this server's configuration (NAMESERVERS, HOSTMASTER, RESOLVER, DNS_PORT, PUBLIC_URL). */
  setup?: ReadinessSettings;
}

function bffDeps(services: Services, opts: BffOptions): BffDeps {
  const now = opts.now ?? Date.now;
  // Without a test's clock, sessions read this process's and leave out what a step of it added.
  const sessions = services.sessions(opts.sessionTimes ?? DEFAULT_SESSION_TIMES, opts.now);
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
  return {
    services,
    sessions,
    throttle: services.signInThrottle(opts.throttle ?? DEFAULT_THROTTLE, now),
    now,
    mustEnrol,
    info: async (s) => ({
      username: s.username,
      csrf_token: s.row.csrf_token,
      expires_at: sessions.endsAt(s.row),
      enrolment_required: await mustEnrol(s.row),
      password_change_required: await services.store.users.mustChangePassword(s.row.user_id),
    }),
    requireOwnPassword: (row, method, path) => requireOwnPassword(services, row, method, path),
  };
}

export function bffApp(services: Services, apiFetch: ApiFetch, opts: BffOptions = {}) {
  const deps = bffDeps(services, opts);
  const app = new Hono<BffEnv>();
  app.use('*', siteCheck(opts.publicOrigin, opts.allowedHosts ?? []));
  // Sign-in, sessions, ip-usage and the forwarded calls: per client address, as the API limits them.
  app.use('*', limitByAddress(opts.rateLimitAddress ?? null, services.store.sharedBuckets));
  app.route('/', passwordRoutes(deps));
  app.route('/', sessionRoutes(deps));
  // Single sign-on (OpenID Connect): /bff/oidc/start, /callback, /link and /second-factor.
  app.route('/oidc', oidcApp(deps));
  app.route('/', passkeyRoutes(deps));
  app.route('/api', apiRoutes(deps, apiFetch, opts.requireTwoFactor ?? false));
  if (opts.setup) app.route('/setup', setupRoutes(deps, opts.setup));
  return app;
}
