/** What every zone write of the PowerDNS API carries into its change set: source `pdns`, the user, `token:<id>` and its scope. */
import type { Context } from 'hono';
import type { WriteOptions } from '../services/changes/change-sets';
import type { PdnsEnv } from './auth';

export function pdnsWrite(c: Context<PdnsEnv>, comment?: string): WriteOptions {
  const { user, token, scope } = c.get('principal');
  // The token's scope decides which RRsets it may change, checked in the change set.
  return { source: 'pdns', actor: { username: user.username, userId: user.id, credential: `token:${token.id}`, scope }, comment };
}
