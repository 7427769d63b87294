/**
 * Builds the Hono app: request ids and access log, the public API at /api/v1, the
 * backend-for-frontend at /bff, the built dashboard for every other GET, and the one
 * onError/notFound that give every failure the error body of DESIGN.md §3.
 */
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { publicApi } from './api';
import { pdnsApi } from './pdns';
import { healthApp } from './api/health';
import { httpMetrics } from './metrics';
import { errorBody, errorResponse } from './api/errors';
import { bffApp, type BffOptions } from './bff';
import { spaHandler } from './bff/spa';
import type { Config } from './config';
import type { Logger } from './log';
import type { Services } from './services';

export interface AppDeps {
  services: Services;
  config: Config;
  log: Logger;
  /** Session lifetimes, sign-in throttling and clock of the BFF (tests). */
  bff?: BffOptions;
  /** Where the built SPA lives; the repository's dist/ by default. */
  staticRoot?: string;
}

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
  // HSTS is set above, and only under TLS.
  strictTransportSecurity: false,
  crossOriginResourcePolicy: 'same-origin',
  permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
});

export function buildApp({ services, config, log, bff, staticRoot = DIST }: AppDeps) {
  const app = new Hono<{ Variables: { requestId: string } }>();
  app.use('*', requestId());
  app.use('*', httpMetrics);
  if (config.tls) {
    // HTTPS only (DESIGN.md §2): browsers must never fall back to plain HTTP.
    app.use('*', async (c, next) => {
      await next();
      c.header('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    });
  }
  app.use('*', async (c, next) => {
    const start = performance.now();
    await next();
    // The path only: a query string may carry an apikey.
    log.info({ request_id: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - start) * 10) / 10 }, 'request');
  });
  app.use('*', async (c, next) => {
    if (c.req.path.startsWith('/api/')) return next();
    return dashboardHeaders(c, next);
  });
  app.route('/', healthApp(services.store));
  // The PowerDNS-compatible API (DESIGN.md §14) first: its /api/v1/servers… must not reach zonedeck's API and its Bearer auth.
  app.route('/api', pdnsApi(services, config, log));
  app.route('/api/v1', publicApi(services, config));
  // The BFF calls the API through this same app, so auth, validation and errors are the API's own.
  app.route('/bff', bffApp(services, (req) => app.fetch(req), bff));
  app.use('*', compress());
  app.get('*', spaHandler(staticRoot));
  app.notFound((c) => c.json(errorBody(404, 'not_found', `no route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => errorResponse(c, err, (e, id) => log.error({ err: e, request_id: id }, 'unhandled error')));
  return app;
}

export type App = ReturnType<typeof buildApp>;
