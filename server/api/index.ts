/** The public API at /api/v1: auth, body reading, resources and the OpenAPI document. */
import type { Config } from '../config';
import type { Services } from '../services';
import { requireToken } from './auth';
import { bodyLimits, cleanQuery } from '../http/body';
import { addressLimit, tokenLimit } from '../http/rate-limit';
import { runChecks } from '../http/checks';
import { createApi } from './create-api';
import { changesApi } from './zones/changes';
import { queryStatsApi } from './zones/query-stats';
import { zoneFilesApi } from './zones/zone-files';
import { domainsApi } from './zones/domains';
import { accountZonesApi } from './zones/account-zones';
import { ipsApi } from './account/ips';
import { recordsApi } from './zones/records';
import { enforceScope } from './zones/scope';
import { teamsApi } from './account/teams';
import { invitationsApi } from './account/invitations';
import { tokensApi } from './account/tokens';
import { tsigKeysApi } from './account/tsig-keys';
import { webhooksApi } from './account/webhooks';
import { accountApi } from './account/account';
import { auditApi } from './account/audit';
import { usersApi } from './account/users';
import { userIpsApi } from './account/user-ips';
import { catalogsApi } from './zones/catalogs';
import { templatesApi } from './across-zones/templates';
import { searchApi } from './across-zones/search';
import { settingsApi } from './account/settings';
import { delegationApi } from './zones/delegation';
import { dnssecApi } from './zones/dnssec';
import { poolsApi } from './zones/pools';
import { deletedDomainsApi } from './zones/deleted-domains';

export function publicApi(services: Services, config: Pick<Config, 'bodyLimitBytes' | 'bodyTimeoutMs' | 'bulkBodyLimitBytes' | 'rateLimitToken' | 'rateLimitAddress'>) {
  const api = createApi();
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'API token' });
  api.openAPIRegistry.registerComponent('securitySchemes', 'apikey', { type: 'apiKey', in: 'query', name: 'apikey', description: 'API token as a query parameter' });
  // Registered before the auth middleware: the document is public.
  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'zonedeck API',
      version: '1.0.0',
      description:
        'Authoritative DNS management. Errors share one body: {"error": {"status", "code", "message", "fields"}}. ' +
        'Lists are paginated with page/per_page; totals in X-Total-Count, X-Page, X-Per-Page and Link headers.',
    },
    servers: [{ url: '/api/v1' }],
  });
  api.use(
    '*',
    runChecks([
      addressLimit(config.rateLimitAddress, services.store.sharedBuckets),
      requireToken(services),
      enforceScope(services),
      tokenLimit(config.rateLimitToken, services.store.sharedBuckets),
      cleanQuery,
      bodyLimits({ limitBytes: config.bodyLimitBytes, timeoutMs: config.bodyTimeoutMs, bulkLimitBytes: config.bulkBodyLimitBytes }),
    ]),
  );
  api.route('/', ipsApi(services));
  api.route('/', domainsApi(services));
  api.route('/', accountZonesApi(services));
  api.route('/', catalogsApi(services));
  api.route('/', deletedDomainsApi(services));
  api.route('/', recordsApi(services));
  api.route('/', changesApi(services));
  api.route('/', queryStatsApi(services));
  api.route('/', delegationApi(services));
  api.route('/', dnssecApi(services));
  api.route('/', poolsApi(services));
  api.route('/', zoneFilesApi(services));
  api.route('/', teamsApi(services));
  api.route('/', invitationsApi(services));
  api.route('/', tokensApi(services));
  api.route('/', tsigKeysApi(services));
  api.route('/', webhooksApi(services));
  api.route('/', accountApi(services));
  api.route('/', usersApi(services));
  api.route('/', userIpsApi(services));
  api.route('/', auditApi(services));
  api.route('/', templatesApi(services));
  api.route('/', searchApi(services));
  api.route('/', settingsApi(services));
  return api;
}
