/**
 * "Before real use", for administrators: what this server still needs set (`GET /bff/setup`), and
 * the move of zones from another apex NS set to NAMESERVERS (`POST /bff/setup/nameservers/move`,
 * one set at a time: the administrator chooses which set moves, so a set made by hand stays unless
 * they pick it). The dashboard's own route, not the API's: it reads this server's configuration.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { createReadiness, type ReadinessSettings } from '../services/readiness';
import type { BffDeps } from './bff-deps';
import { originCheck, requireSession, type BffEnv } from './guard';
import { jsonBody, parsedBody } from './json-body';

const Move = z.strictObject({ from: z.array(z.string().max(253)).max(64) });

export function setupRoutes(deps: BffDeps, settings: ReadinessSettings) {
  const { services } = deps;
  const readiness = createReadiness(services.store, services.nameservers, services.firstPassword, settings);
  const app = new Hono<BffEnv>();
  app.use('*', originCheck, requireSession(deps.sessions), async (c, next) => {
    const row = c.get('session').row;
    await deps.requireOwnPassword(row, c.req.method, c.req.path);
    services.users.requireAdmin((await services.store.users.byId(row.user_id)) ?? { is_admin: false });
    await next();
  });

  app.get('/', async (c) => c.json(await readiness(), 200));

  app.post('/nameservers/move', jsonBody(16_384), async (c) => {
    const { from } = await parsedBody(c, Move, 'send {"from": ["ns1.example.net", …]}: the apex NS set whose zones move to NAMESERVERS');
    const actor = { username: c.get('session').username, credential: 'session' };
    const result = await services.nameservers.move({ to: services.nameservers.configured, from, actor });
    return c.json({ moved: result.moved.length, failed: result.failed }, 200);
  });
  return app;
}
