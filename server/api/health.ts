/**
 * Liveness (`/healthz`), readiness (`/readyz`: the store answers, and which schema it has: the
 * last migration run, so an upgrade can be watched node by node) and Prometheus `/metrics`.
 */
import { Hono } from 'hono';
import type { Store } from '../store/types';
import { registry } from '../metrics';

export function healthApp(store: Store) {
  return new Hono()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      try {
        await store.ping();
        return c.json({ status: 'ready', schema_version: await store.schemaVersion() });
      } catch {
        return c.json({ status: 'unavailable', reason: 'the database does not answer' }, 503);
      }
    })
    .get('/metrics', async (c) => c.body(await registry.metrics(), 200, { 'content-type': registry.contentType }));
}
