/**
 * PowerDNS clients authenticate with `X-API-Key: <key>` (pdns/webserver.cc `apiWrapper`);
 * here the key is a zonedeck API token, so its user, expiry and scope apply. Missing or
 * wrong: 401 `{"error": "Unauthorized"}` with `WWW-Authenticate: X-API-Key`, as PowerDNS answers.
 */
import type { MiddlewareHandler } from 'hono';
import type { Services } from '../services';
import type { DomainRow } from '../store/types';
import type { Principal } from '../services/identity/accounts';
import { PdnsError } from './errors';

/** `zone`: the zone a `…/zones/:zone_id…` path names, resolved once before any handler (server/pdns/scope.ts). */
export type PdnsEnv = { Variables: { principal: Principal; requestId: string; zone: DomainRow } };

export const unauthorized = () => new PdnsError(401, 'Unauthorized', { 'WWW-Authenticate': 'X-API-Key realm="zonedeck"' });

export function requireApiKey(services: Services): MiddlewareHandler<PdnsEnv> {
  return async (c, next) => {
    const secret = c.req.header('x-api-key')?.trim();
    if (!secret) throw unauthorized();
    const principal = await services.accounts.authenticate(secret);
    if (!principal) throw unauthorized();
    c.set('principal', principal);
    return next();
  };
}
