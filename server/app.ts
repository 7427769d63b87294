/**
 * Builds the Hono app: request ids and access log, the public API at /api/v1, and the
 * one onError/notFound that give every failure the error body of DESIGN.md §3.
 */
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { publicApi } from './api';
import { errorBody, errorResponse } from './api/errors';
import type { Config } from './config';
import type { Logger } from './log';
import type { Services } from './services';

export interface AppDeps {
  services: Services;
  config: Config;
  log: Logger;
}

export function buildApp({ services, config, log }: AppDeps) {
  const app = new Hono<{ Variables: { requestId: string } }>();
  app.use('*', requestId());
  app.use('*', async (c, next) => {
    const start = performance.now();
    await next();
    // The path only: a query string may carry an apikey.
    log.info({ request_id: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - start) * 10) / 10 }, 'request');
  });
  app.route('/api/v1', publicApi(services, config));
  app.notFound((c) => c.json(errorBody(404, 'not_found', `no route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => errorResponse(c, err, (e, id) => log.error({ err: e, request_id: id }, 'unhandled error')));
  return app;
}

export type App = ReturnType<typeof buildApp>;
