/**
 * The parts of a token's scope (DESIGN.md §13) that the edge can judge from the request alone:
 * the client network, read-only, and which zone a `/domains/:name…` path touches. Outside the
 * scope: 403. Which records a write may change (names, types) is judged where the change is
 * known, in the change-set function, from `principal.scope`.
 */
import type { Context } from 'hono';
import { clientAddress } from '../client-address';
import { Forbidden } from '../core/errors';
import { allowsAddress, allowsZone, isRestricted, type Scope } from '../core/scope';
import type { Services } from '../services';
import type { ApiEnv } from './auth';
import type { Check } from './checks';
import { zoneParam } from './domains';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Paths of the credentials themselves: a token with a scope may not mint or revoke credentials (it could mint a wider one). */
const CREDENTIALS = /^\/(tokens|tsig-keys)(\/|$)/;
const DOMAIN_PATH = /^\/domains\/([^/]+)(\/.*)?$/;

const forbidden = (message: string) => new Forbidden(message);

export function enforceScope(services: Services, base = '/api/v1'): Check<ApiEnv> {
  /** The user's zone a path name means: the name itself, else the closest enclosing zone of theirs (DESIGN.md §3). */
  async function zoneOf(userId: number, name: string): Promise<string | null> {
    for (let n = name; n.includes('.'); n = n.slice(n.indexOf('.') + 1)) {
      const zone = await services.store.domains.byName(n);
      if (zone && zone.user_id === userId) return zone.name;
    }
    return null;
  }

  async function checkZonePath(scope: Scope, userId: number, method: string, name: string, rest: string | undefined): Promise<void> {
    // Zone settings, DNSSEC and deletion are not record changes a names/types scope could allow.
    if (rest === undefined && !READS.has(method) && (scope.names?.length || scope.types?.length)) {
      throw forbidden('this token may change only the records its scope names, not the zone itself');
    }
    if (!scope.zones?.length) return;
    const zone = scope.zones.includes(name) ? name : await zoneOf(userId, name);
    // No zone of this user: the handler answers 404 exactly as for anyone else.
    if (zone !== null && !allowsZone(scope, zone)) throw forbidden(`this token's scope does not include the zone ${zone}`);
  }

  async function checkScope(c: Context<ApiEnv>, scope: Scope, userId: number): Promise<void> {
    if (!allowsAddress(scope, clientAddress(c))) throw forbidden("this token may not be used from this address (see its scope's allowed_ips)");
    const method = c.req.method;
    if (scope.read_only && !READS.has(method)) throw forbidden('this token is read-only');
    const path = c.req.path.startsWith(base) ? c.req.path.slice(base.length) : c.req.path;
    if (CREDENTIALS.test(path) && !READS.has(method)) throw forbidden('a token with a scope cannot create or revoke tokens or TSIG keys');
    if (path === '/domains' && method === 'POST' && (scope.zones?.length || scope.names?.length || scope.types?.length)) {
      throw forbidden('a token limited to zones, names or types cannot create zones');
    }
    const m = DOMAIN_PATH.exec(path);
    if (!m) return;
    let name: string;
    try {
      name = zoneParam(decodeURIComponent(m[1]!)).toLowerCase().replace(/\.$/, '');
    } catch {
      return;
    }
    await checkZonePath(scope, userId, method, name, m[2]);
  }

  return (c) => {
    const { scope, user } = c.get('principal');
    // Most tokens have no scope: nothing to check, and no promise to wait for.
    if (!isRestricted(scope)) return;
    return checkScope(c, scope, user.id);
  };
}
