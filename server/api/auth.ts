/**
 * Authentication on every API endpoint: `Authorization: Bearer <token>` or `?apikey=<token>`
 *. Failure is 401 with `WWW-Authenticate: Bearer`.
 */
import type { Role } from '../core/roles';
import type { Principal } from '../services/identity/accounts';
import type { Services } from '../services';
import type { Place } from '../services/zones/zones';
import type { Check } from '../http/checks';
import { HttpError } from '../http/http-error';

/**
 * `zone`: the zone a `/domains/:name…` path names, resolved once before any handler runs
 * (server/api/zones/scope.ts); the scope was judged on it, and the handler acts on it.
 */
/** `role`: the member's role on the path's zone (a user's own zone: owner). */
/** `heldBy`: set when an administrator reads another account's zone: whose it is (`alice`, `team web`). */
export type ApiEnv = { Variables: { principal: Principal; requestId: string; zone: Place; role?: Role; heldBy?: string } };

function unauthorized(message: string, error?: string): HttpError {
  const challenge = error ? `Bearer realm="zonedeck", error="${error}"` : 'Bearer realm="zonedeck"';
  return new HttpError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': challenge });
}

/** Sets the request's principal from its token; 401 without a valid one. */
export function requireToken(services: Services): Check<ApiEnv> {
  return async (c) => {
    const header = c.req.header('authorization');
    let secret: string | undefined;
    if (header !== undefined) {
      const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
      if (!m) throw unauthorized('the Authorization header must be "Bearer <token>"', 'invalid_request');
      secret = m[1];
    } else {
      secret = c.req.query('apikey') || undefined;
    }
    if (!secret) throw unauthorized('authentication required: send Authorization: Bearer <token> or ?apikey=<token>');
    const principal = await services.accounts.authenticate(secret);
    if (!principal) throw unauthorized('the token is unknown, revoked or expired', 'invalid_token');
    c.set('principal', principal);
  };
}
