/**
 * The zone a request's path names, and the parts of a credential's scope
 * the edge can judge from the request alone.
 *
 * A `/domains/:name…` path becomes a zone row and the user's role on it here, once, through the
 * services' place finder (services/zones/place.ts, strict name parsing): a name that resolves to
 * no zone of the user is 404 before any handler runs, the scope's zone list and the role are
 * judged on that row, and the handler acts on the same row (`pathZone(c)`), never on its own
 * reading of the path. A write's change set reads that zone again by id under its lock, and judges
 * there, on the locked row, the role and which records, settings or keys the write may change.
 */
import type { Context } from 'hono';
import { clientAddress } from '../../http/client-address';
import { Forbidden, NotFound, SecondaryZone } from '../../core/errors';
import { allowsAddress, allowsZone, isRestricted, limitsRecords, type Scope } from '../../core/scope';
import type { Services } from '../../services';
import { edgeRoleRefusal } from '../../services/zones/access';
import { administratorView } from '../../services/zones/administrator-view';
import type { UserRow } from '../../store/types';
import { ownedPlace, zonePlace, type Place } from '../../services/zones/place';
import type { ApiEnv } from '../auth';
import type { Check } from '../checks';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Paths of the credentials themselves: a token with a scope may not mint or revoke credentials (it could mint a wider one). */
const CREDENTIALS = /^\/(tokens|tsig-keys)(\/|$)/;
const DOMAIN_PATH = /^\/domains\/([^/]*)(\/.*)?$/;
/** The record endpoints name a place: the zone, or a name inside it. Every other path names the zone exactly. */
const PLACE_PATH = /^\/records(\/|$)/;

const forbidden = (message: string) => new Forbidden(message);
/** What may be done to a secondary zone by a write method: delete it, move it, have it retrieved now, check its delegation. */
const SECONDARY_ACTS = /^(DELETE |PUT \/owner|POST \/retrieve|POST \/delegation(\/.*)?)$/;

/** The zone the request's path named, as resolved before the handler (NotFound if the path named none). */
export function pathZone(c: Context<ApiEnv>): Place {
  const place = c.get('zone');
  if (!place) throw new NotFound('no such domain');
  return place;
}

/**
 * The zone name of a path, without the `.json` suffix the spec's sample request carries
 * (`PUT /domains/:name.json` is `PUT /domains/:name`).
 */
function zoneParam(name: string): string {
  const stripped = name.endsWith('.json') ? name.slice(0, -5) : name;
  return stripped.includes('.') ? stripped : name;
}

/** The path's zone segment, percent-decoded as the router decodes parameters; a bad escape names no zone. */
function decodeSegment(segment: string): string {
  try {
    return zoneParam(decodeURIComponent(segment));
  } catch {
    throw new NotFound('no such domain');
  }
}

export function enforceScope(services: Services, base = '/api/v1'): Check<ApiEnv> {
  const { store } = services;

  function checkEdge(c: Context<ApiEnv>, scope: Scope, path: string): void {
    if (!allowsAddress(scope, clientAddress(c))) throw forbidden("this token may not be used from this address (see its scope's allowed_ips)");
    const method = c.req.method;
    if (scope.read_only && !READS.has(method)) throw forbidden('this token is read-only');
    if (CREDENTIALS.test(path) && !READS.has(method)) throw forbidden('a token with a scope cannot create or revoke tokens or TSIG keys');
    if (path === '/domains' && method === 'POST' && (scope.zones?.length || limitsRecords(scope))) {
      throw forbidden('a token limited to zones, names or types cannot create zones');
    }
  }

  /**
   * The zone and the user's role on it, read and judged once for the whole request; an
   * administrator reads any other account's zone by its exact name, and writes none.
   */
  async function placeOf(c: Context<ApiEnv>, user: UserRow, name: string, rest: string | undefined): Promise<Place> {
    try {
      return rest !== undefined && PLACE_PATH.test(rest) ? await zonePlace(store, user.id, name) : await ownedPlace(store, user.id, name);
    } catch (e) {
      const seen = e instanceof NotFound ? await administratorView(store, user, name) : null;
      if (!seen) throw e;
      if (!READS.has(c.req.method)) throw forbidden(`${seen.place.zone.name} is held by ${seen.heldBy}: an administrator reads other accounts' zones and changes nothing in them`);
      c.set('heldBy', seen.heldBy);
      return seen.place;
    }
  }

  async function resolve(c: Context<ApiEnv>, scope: Scope, user: UserRow, segment: string, rest: string | undefined): Promise<void> {
    const name = decodeSegment(segment);
    const place = await placeOf(c, user, name, rest);
    // Judged on the row the path resolved to, whatever spelling named it.
    if (!allowsZone(scope, place.zone.name)) throw forbidden(`this token's scope does not include the zone ${place.zone.name}`);
    const write = !READS.has(c.req.method);
    // Zone settings, DNSSEC and deletion are not record changes a names/types scope could allow.
    if (rest === undefined && write && limitsRecords(scope)) {
      throw forbidden('this token may change only the records its scope names, not the zone itself');
    }
    // A secondary's content is its primary's: no write reaches it here (it may be moved, deleted, or retrieved now).
    if (write && place.zone.kind === 'secondary' && !SECONDARY_ACTS.test(`${c.req.method} ${rest ?? ''}`)) throw new SecondaryZone(place.zone.name);
    // A team's zone: the member's role too, on the same row.
    const role = place.role;
    const why = role && (await edgeRoleRefusal(store, place.zone, role, write, write && rest === undefined));
    if (why) throw forbidden(why);
    c.set('zone', place);
    c.set('role', role);
  }

  return (c) => {
    const { scope, user } = c.get('principal');
    const path = c.req.path.startsWith(base) ? c.req.path.slice(base.length) : c.req.path;
    // Most tokens have no scope: nothing to check at the edge.
    if (isRestricted(scope)) checkEdge(c, scope, path);
    const m = DOMAIN_PATH.exec(path);
    if (!m) return;
    return resolve(c, scope, user, m[1]!, m[2]);
  };
}
