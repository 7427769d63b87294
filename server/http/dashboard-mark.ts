/**
 * How the API knows a call came from the dashboard (source `dashboard`, credential `session`
 * in the zone history): the BFF forwards in process with this header, whose value is a secret
 * of this process. A client that sends the header without the secret is an ordinary API call.
 */
import { randomBytes } from 'node:crypto';

export const DASHBOARD_HEADER = 'x-zonedeck-dashboard';
export const DASHBOARD_MARK = randomBytes(24).toString('base64url');

/**
 * The browser's address, which the BFF passes on beside the mark (the API's own view of a forwarded
 * call has no peer): believed only with the mark, for the audit log.
 */
export const DASHBOARD_CLIENT_HEADER = 'x-zonedeck-client-address';
