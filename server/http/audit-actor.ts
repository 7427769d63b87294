/**
 * Who makes an API request, as the audit log records it: the user, the credential (`token:<id>`,
 * or `session` for the dashboard), and the client's address and user agent. A call the dashboard
 * forwards has no peer of its own: the BFF passes the browser's address beside its mark, and the
 * browser's user agent as it came.
 */
import type { Context } from 'hono';
import { clientAddress } from './client-address';
import { DASHBOARD_CLIENT_HEADER, DASHBOARD_HEADER, DASHBOARD_MARK } from './dashboard-mark';
import type { Principal } from '../services/identity/accounts';
import type { AuditActor } from '../services/identity/audit';

/** Longest address believed from the BFF's header (an IPv6 address with a zone fits). */
const MAX_ADDRESS = 64;

/** Any request the API or the PowerDNS API authenticated (their contexts differ in other variables). */
type Authenticated = Context<{ Variables: { principal: Principal } }>;

export function auditActor<E extends { Variables: { principal: Principal } }>(c: Context<E>): AuditActor & { userId: number } {
  const { user, token } = (c as unknown as Authenticated).get('principal');
  const dashboard = c.req.header(DASHBOARD_HEADER) === DASHBOARD_MARK;
  const address = dashboard ? c.req.header(DASHBOARD_CLIENT_HEADER)?.slice(0, MAX_ADDRESS) : clientAddress(c);
  return {
    userId: user.id,
    username: user.username,
    credential: dashboard ? 'session' : `token:${token.id}`,
    address: address ?? '',
    userAgent: c.req.header('user-agent') ?? '',
  };
}
