/**
 * Builds the Hono app: request ids, metrics and access log, the public API at /api/v1, the
 * backend-for-frontend at /bff, the built dashboard for every other GET, and the one
 * onError/notFound that give every failure the one error body (docs/api.md, "Errors").
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { secureHeaders } from 'hono/secure-headers';
import { publicApi } from './api';
import { pdnsApi } from './pdns';
import { healthApp } from './api/health';
import { countHttpRequest } from './metrics';
import { trustProxy } from './http/client-address';
import { shedLoad, type OverloadGuard } from './http/overload';
import { errorBody, errorResponse } from './api/errors';
import { bffApp, type BffOptions } from './bff';
import { spaHandler } from './bff/spa';
import type { Config } from './config';
import type { NodeBindings } from './http/http-server';
import type { Logger } from './log';
import type { Services } from './services';

export interface AppDeps {
  services: Services;
  config: Config;
  log: Logger;
  /** Session lifetimes, sign-in throttling and clock of the BFF (tests). */
  bff?: BffOptions;
  /** The DNS thread's start-up progress, for /readyz. */
  dnsProgress?: () => { loaded: number; total: number } | null;
  /** The port the DNS thread listens on (DNS_PORT=0 picks one), for "before real use"; null when off. */
  dnsPort?: () => number | null;
  /** Where the built SPA lives; the repository's dist/ by default. */
  staticRoot?: string;
  /** The bound on requests served at once and the event loop's lag (server/main.ts; absent: nothing is shed). */
  overload?: OverloadGuard;
}

// One level below the repository both as server/app.ts and as the built build/server.js.
const DIST = fileURLToPath(new URL('../dist', import.meta.url));

/** For the dashboard and the BFF: no inline script, no framing, no sniffing, no referrer. */
const dashboardHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  referrerPolicy: 'no-referrer',
  xFrameOptions: 'DENY',
  // HSTS is set for every response in buildApp, and only under TLS.
  strictTransportSecurity: false,
  crossOriginResourcePolicy: 'same-origin',
  permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
});

const HSTS = 'max-age=63072000; includeSubDomains';

type AppEnv = { Bindings: NodeBindings; Variables: { requestId: string } };

/** A client's own X-Request-Id when it is a sane token (as hono/request-id accepts it), else a fresh one. */
function requestIdOf(given: string | undefined): string {
  return given !== undefined && /^[\w\-=]{1,255}$/.test(given) ? given : randomUUID();
}

export function buildApp({ services, config, log, bff, dnsProgress, dnsPort, staticRoot = DIST, overload }: AppDeps) {
  const app = new Hono<AppEnv>();
  const logRequests = log.isLevelEnabled('info');
  // One layer for what every request gets (each Hono layer costs a dispatch and a promise per request).
  app.use('*', async (c, next) => {
    const start = performance.now();
    const id = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', id);
    // Over HTTP these headers go straight onto Node's response, so the handlers' own headers can
    // stay a plain object that @hono/node-server writes without building a Headers; in process
    // (tests, the BFF's calls into the API) Hono's response carries them.
    const outgoing = c.env?.outgoing;
    if (outgoing) {
      outgoing.setHeader('x-request-id', id);
      // HTTPS only: browsers must never fall back to plain HTTP.
      if (config.tls) outgoing.setHeader('strict-transport-security', HSTS);
    }
    await (c.req.path.startsWith('/api/') ? next() : dashboardHeaders(c, next));
    if (!outgoing) {
      c.header('X-Request-Id', id);
      if (config.tls) c.header('Strict-Transport-Security', HSTS);
    }
    const ms = performance.now() - start;
    countHttpRequest(c, ms / 1000);
    // The path only: a query string may carry an apikey.
    if (logRequests) log.info({ request_id: id, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(ms * 10) / 10 }, 'request');
  });
  // Past the first layer, so that a request shed is counted and logged as any other; before every route, so it has read no body.
  if (overload) app.use('*', shedLoad(overload));
  // Only listed proxies may say who the client is and at which site (TRUST_PROXY).
  app.use('*', trustProxy(config.trustProxy));
  app.route('/', healthApp(services.store, { dnsProgress }));
  // The PowerDNS-compatible API first: its /api/v1/servers… must not reach zonedeck's API and its Bearer auth.
  app.route('/api', pdnsApi(services, config, log));
  app.route('/api/v1', publicApi(services, config));
  // The BFF calls the API through this same app, so auth, validation and errors are the API's own.
  app.route(
    '/bff',
    bffApp(services, (req) => app.fetch(req), {
      rateLimitAddress: config.rateLimitAddress,
      publicOrigin: config.publicOrigin,
      allowedHosts: config.allowedHosts,
      requireTwoFactor: config.requireTwoFactor,
      setup: { nameservers: config.nameservers, hostmaster: config.hostmaster, resolver: config.resolver, dnsPort: dnsPort ?? (() => config.dnsPort), publicOrigin: config.publicOrigin },
      ...bff,
    }),
  );
  app.use('*', compress());
  app.get('*', spaHandler(staticRoot));
  app.notFound((c) => c.json(errorBody(404, 'not_found', `no route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => errorResponse(c, err, (e, id) => log.error({ err: e, request_id: id }, 'unhandled error')));
  return app;
}

export type App = ReturnType<typeof buildApp>;
