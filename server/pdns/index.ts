/**
 * The PowerDNS-compatible API, mounted at `/api` beside zonedeck's own API:
 * `GET /api`, and `/api/v1/servers…` (a path zonedeck's API does not use). Authentication by
 * `X-API-Key` with a zonedeck token, whose scope holds here too; errors in PowerDNS's
 * `{"error": "…"}` form.
 */
import { Hono } from 'hono';
import { addressLimit, limitByAddress, limitByToken } from '../http/rate-limit';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { Services } from '../services';
import { requireApiKey, unauthorized, type PdnsEnv } from './auth';
import { pdnsBody } from './body';
import { cacheFlushApi } from './zones/cache-flush';
import { preflight } from './preflight';
import { statisticsApi } from './zones/statistics';
import { enforcePdnsScope } from './scope';
import { cryptokeysApi } from './zones/cryptokeys';
import { metadataApi } from './zones/metadata';
import { searchDataApi } from './zones/search-data';
import { tsigKeysApi } from './tsigkeys';
import { PdnsError, pdnsErrorResponse } from './errors';
import { zonesApi } from './zones/zones';

/** The version PowerDNS clients read: 4.x so they use the v1 API, with a `-` suffix as PowerDNS's own builds have (octoDNS parses it). */
export const PDNS_VERSION = '4.9.0-zonedeck';

const SERVER = '/v1/servers/localhost';

export type PdnsConfig = Pick<Config, 'nameservers' | 'hostmaster' | 'catalogZone' | 'bodyLimitBytes' | 'bodyTimeoutMs' | 'bulkBodyLimitBytes' | 'rateLimitToken' | 'rateLimitAddress'>;

function serverView() {
  return {
    type: 'Server',
    id: 'localhost',
    daemon_type: 'authoritative',
    version: PDNS_VERSION,
    url: '/api/v1/servers/localhost',
    config_url: '/api/v1/servers/localhost/config{/config_setting}',
    zones_url: '/api/v1/servers/localhost/zones{/zone}',
  };
}

export function pdnsApi(services: Services, config: PdnsConfig, log: Logger) {
  const identity = { primary: config.nameservers[0]!, hostmaster: config.hostmaster, nameservers: config.nameservers };
  const app = new Hono<PdnsEnv>();
  // A CORS preflight carries no key: answered before authentication, for PowerDNS's paths only.
  for (const path of ['/', '/v1', '/v1/servers', '/v1/servers/*']) app.options(path, preflight);
  // GET /api/v1 is PowerDNS's discovery when the client speaks PowerDNS (X-API-Key); without the
  // header it is left to zonedeck's own API, mounted at /api/v1 after this one.
  const byAddress = addressLimit(config.rateLimitAddress, services.store.sharedBuckets);
  app.get('/v1', async (c, next) => {
    if (c.req.header('x-api-key') === undefined) return next();
    await byAddress?.(c);
    if (!(await services.accounts.authenticate(c.req.header('x-api-key')!.trim()))) throw unauthorized();
    return c.json([{ server_url: '/api/v1/servers{/server}', api_features: [] }]);
  });
  // Only these paths ('/v1/servers/*' takes '/v1/servers' too): every other /api/… is zonedeck's API, with its own auth and errors.
  for (const path of ['/', '/v1/servers/*']) {
    app.use(path, limitByAddress(config.rateLimitAddress, services.store.sharedBuckets));
    app.use(path, requireApiKey(services));
    app.use(path, enforcePdnsScope(services));
    app.use(path, limitByToken(config.rateLimitToken, services.store.sharedBuckets));
    app.use(path, pdnsBody({ limitBytes: config.bodyLimitBytes, bulkLimitBytes: config.bulkBodyLimitBytes, timeoutMs: config.bodyTimeoutMs }));
  }
  app.get('/', (c) => c.json([{ url: '/api/v1', version: 1 }]));
  app.get('/v1/servers', (c) => c.json([serverView()]));
  app.get(SERVER, (c) => c.json(serverView()));
  app.route(SERVER, zonesApi(services, identity, { catalog: config.catalogZone }));
  app.route(SERVER, cryptokeysApi(services));
  app.route(SERVER, metadataApi(services));
  app.route(SERVER, tsigKeysApi(services));
  app.route(SERVER, searchDataApi(services, identity));
  app.route(SERVER, cacheFlushApi());
  app.route(SERVER, statisticsApi());
  app.all('/v1/servers/*', () => {
    throw new PdnsError(404, 'Not Found');
  });
  app.onError((err, c) => pdnsErrorResponse(c, err, (e, id) => log.error({ err: e, request_id: id }, 'unhandled error')));
  return app;
}
