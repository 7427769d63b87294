/**
 * A token's scope (DESIGN.md §13) on the PowerDNS API, judged as zonedeck's API judges it
 * (server/api/scope.ts): the client network, read-only, zone creation, and the zone an id
 * names, 403 outside the scope. Which records a PATCH may change (names, types) is judged in
 * the change set, from the same scope (write-options.ts). A NOTIFY changes nothing and is
 * allowed to any token that may see the zone: lego asks for one after each change it makes.
 */
import type { MiddlewareHandler } from 'hono';
import { clientAddress } from '../client-address';
import { allowsAddress, allowsZone, isRestricted } from '../core/scope';
import type { Services } from '../services';
import type { PdnsEnv } from './auth';
import { PdnsError } from './errors';
import { zoneNameOfId } from './names';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ZONES = /^\/api\/v1\/servers\/[^/]+\/zones\/?$/;
const ZONE_PATH = /^\/api\/v1\/servers\/[^/]+\/zones\/([^/]+)(\/.*)?$/;

const forbidden = (message: string) => new PdnsError(403, message);

export function enforcePdnsScope(services: Services): MiddlewareHandler<PdnsEnv> {
  return async (c, next) => {
    const { scope, user } = c.get('principal');
    if (!isRestricted(scope)) return next();
    if (!allowsAddress(scope, clientAddress(c))) throw forbidden("this token may not be used from this address (see its scope's allowed_ips)");
    const method = c.req.method;
    const path = c.req.path;
    const m = ZONE_PATH.exec(path);
    const rest = m?.[2];
    const write = !READS.has(method) && rest !== '/notify';
    if (scope.read_only && write) throw forbidden('this token is read-only');
    const limited = Boolean(scope.zones?.length || scope.names?.length || scope.types?.length);
    if (ZONES.test(path) && method === 'POST' && limited) throw forbidden('a token limited to zones, names or types cannot create zones');
    if (!m) return next();
    // Zone settings, DNSSEC and deletion are not record changes a names/types scope could allow.
    const zoneWrite = write && (rest === undefined ? method !== 'PATCH' : rest.startsWith('/cryptokeys'));
    if (zoneWrite && (scope.names?.length || scope.types?.length)) throw forbidden('this token may change only the records its scope names, not the zone itself');
    if (!scope.zones?.length) return next();
    let name: string;
    try {
      name = zoneNameOfId(decodeURIComponent(m[1]!));
    } catch {
      return next();
    }
    if (!allowsZone(scope, name)) {
      // Another user's zone, or none: the handler answers 404 exactly as for anyone else.
      const zone = await services.store.domains.byName(name);
      if (zone && zone.user_id === user.id) throw forbidden(`this token's scope does not include the zone ${name}`);
    }
    return next();
  };
}
