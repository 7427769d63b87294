/**
 * PUT …/cache/flush?domain=example.org. (pdns/ws-auth.cc `apiServerCacheFlush`). zonedeck keeps
 * no packet or query cache: every answer comes from the zone's current data, a change is served
 * as soon as it is written. So there is nothing to flush, and the answer says so with PowerDNS's
 * shape, `{"count": 0, "result": "Flushed cache."}`: clients that flush after each change (as
 * they must with PowerDNS's caches) go on working. The domain is checked as PowerDNS checks it.
 */
import { Hono } from 'hono';
import type { PdnsEnv } from '../auth';
import { unprocessable } from '../errors';

export function cacheFlushApi() {
  return new Hono<PdnsEnv>().put('/cache/flush', (c) => {
    const domain = c.req.query('domain') ?? '';
    // PowerDNS takes an absolute name only (apiNameToDNSName): none, or `bar`, is not canonical.
    if (!domain.endsWith('.')) throw unprocessable(`DNS Name '${domain.slice(0, 255)}' is not canonical`);
    return c.json({ count: 0, result: 'Flushed cache.' });
  });
}
