/** What every zone write of the PowerDNS API carries into its change set (DESIGN.md §10): source `pdns`, the user and `token:<id>`. */
import type { Context } from 'hono';
import type { WriteOptions } from '../services/change-sets';
import type { PdnsEnv } from './auth';

export function pdnsWrite(c: Context<PdnsEnv>, comment?: string): WriteOptions {
  const { user, token } = c.get('principal');
  return { source: 'pdns', actor: { username: user.username, credential: `token:${token.id}` }, comment };
}
