/**
 * The zone a PowerDNS API path names, and a token's scope, judged as
 * zonedeck's API judges them (server/api/zones/scope.ts): a `…/zones/:zone_id…` path becomes a zone row
 * here, once, through the same service function the write path re-checks it with; an id that names
 * no zone of the user is 404 before any handler, the scope is judged on that row, and the handler
 * acts on it. The client network, read-only and zone creation are judged from the request. Which
 * records a PATCH may change, and any setting or key, is judged again in the change set. A NOTIFY
 * changes nothing and is allowed to any token that may see the zone: lego asks for one after each
 * change it makes.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { clientAddress } from '../http/client-address';
import { NotFound } from '../core/errors';
import { allowsAddress, allowsZone, isRestricted, limitsRecords, type Scope } from '../core/scope';
import type { Services } from '../services';
import { edgeRoleRefusal, roleOn } from '../services/zones/access';
import type { DomainRow } from '../store/types';
import type { PdnsEnv } from './auth';
import { PdnsError, zoneNotFound } from './errors';
import { dotted, zoneNameOfId } from './names';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ZONES = /^\/api\/v1\/servers\/[^/]+\/zones\/?$/;
/** The credentials themselves: a token with a scope may not mint, change or revoke TSIG keys (it could mint a wider one), as on zonedeck's own API. */
const CREDENTIALS = /^\/api\/v1\/servers\/[^/]+\/tsigkeys(\/|$)/;
const CACHE_FLUSH = /^\/api\/v1\/servers\/[^/]+\/cache\/flush$/;
const ZONE_PATH = /^\/api\/v1\/servers\/[^/]+\/zones\/([^/]*)(\/.*)?$/;

const forbidden = (message: string) => new PdnsError(403, message);

/** The zone the request's path named, as resolved before the handler. */
export function pathZone(c: Context<PdnsEnv>): DomainRow {
  const zone = c.get('zone');
  if (!zone) throw new PdnsError(404, 'Not Found');
  return zone;
}

export function enforcePdnsScope(services: Services): MiddlewareHandler<PdnsEnv> {
  function checkEdge(c: Context<PdnsEnv>, scope: Scope, write: boolean, zoneWrite: boolean): void {
    if (!allowsAddress(scope, clientAddress(c))) throw forbidden("this token may not be used from this address (see its scope's allowed_ips)");
    if (scope.read_only && write) throw forbidden('this token is read-only');
    if (CREDENTIALS.test(c.req.path) && write) throw forbidden('a token with a scope cannot create, change or revoke TSIG keys');
    if (ZONES.test(c.req.path) && c.req.method === 'POST' && (scope.zones?.length || limitsRecords(scope))) {
      throw forbidden('a token limited to zones, names or types cannot create zones');
    }
    // Zone settings, DNSSEC and deletion are not record changes a names/types scope could allow.
    if (zoneWrite && limitsRecords(scope)) throw forbidden('this token may change only the records its scope names, not the zone itself');
  }

  async function resolve(c: Context<PdnsEnv>, scope: Scope, userId: number, segment: string, write: boolean, zoneWrite: boolean): Promise<void> {
    let name: string;
    try {
      name = zoneNameOfId(decodeURIComponent(segment));
    } catch (e) {
      if (e instanceof PdnsError) throw e;
      throw new PdnsError(404, 'Not Found');
    }
    let zone: DomainRow;
    try {
      zone = await services.zones.owned(userId, name);
    } catch (e) {
      if (e instanceof NotFound) throw zoneNotFound(dotted(name.slice(0, 255)));
      throw e;
    }
    // Judged on the row the id resolved to, whatever spelling named it.
    if (!allowsZone(scope, zone.name)) throw forbidden(`this token's scope does not include the zone ${zone.name}`);
    // A team's zone: the member's role too, on the same row.
    const role = await roleOn(services.store, userId, zone);
    const why = role && (await edgeRoleRefusal(services.store, zone, role, write, zoneWrite));
    if (why) throw forbidden(why);
    c.set('zone', zone);
  }

  return async (c, next) => {
    const { scope, user } = c.get('principal');
    const m = ZONE_PATH.exec(c.req.path);
    const rest = m?.[2];
    // A NOTIFY and a cache flush change nothing (zonedeck has no cache: server/pdns/zones/cache-flush.ts).
    const write = !READS.has(c.req.method) && rest !== '/notify' && !CACHE_FLUSH.test(c.req.path);
    // A write to the zone itself (settings, DNSSEC, keys, metadata, deletion), not to its records.
    const zoneWrite = Boolean(m) && write && (rest === undefined ? c.req.method !== 'PATCH' : rest.startsWith('/cryptokeys') || rest.startsWith('/metadata'));
    if (isRestricted(scope)) checkEdge(c, scope, write, zoneWrite);
    if (m) await resolve(c, scope, user.id, m[1]!, write, zoneWrite);
    return next();
  };
}
