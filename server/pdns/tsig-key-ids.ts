/**
 * A zone's `master_tsig_key_ids` and `slave_tsig_key_ids` (PowerDNS's TSIG-ALLOW-AXFR and
 * AXFR-MASTER-TSIG, pdns/ws-auth.cc `extractJsonTSIGKeyIds`). Each id must name a TSIG key of the
 * user, or the answer is PowerDNS's 422 `A TSIG key with the name 'x' does not exist`. Keys allowed
 * to transfer the zone are what zonedeck has already (a key of the zone's owner
 * whose scope takes the zone), so such a key is accepted; one whose scope leaves the zone out
 * would not be allowed, and is 422. A secondary zone (kind Slave) takes one key to fetch its zone
 * with (`slave_tsig_key_ids`); a primary zone fetches nothing, so there it is 422 like `masters`.
 */
import { NotFound } from '../core/errors';
import { allowsZone } from '../core/scope';
import type { Services } from '../services';
import { PdnsError, unprocessable } from './errors';
import { zoneNameOfId } from './names';

export async function checkTsigKeyIds(
  services: Services,
  userId: number,
  zone: string,
  ids: { master_tsig_key_ids?: string[]; slave_tsig_key_ids?: string[] },
  secondary = false,
): Promise<string | null> {
  const own = async (id: string) => {
    let name = id;
    try {
      name = zoneNameOfId(id);
      return await services.tsigKeys.own(userId, name);
    } catch (e) {
      if (e instanceof NotFound || e instanceof PdnsError) throw unprocessable(`A TSIG key with the name '${name.slice(0, 255)}' does not exist`);
      throw e;
    }
  };
  for (const id of ids.master_tsig_key_ids ?? []) {
    const key = await own(id);
    if (!allowsZone(key.scope, zone)) throw unprocessable(`master_tsig_key_ids: the scope of the TSIG key '${key.name}' does not include ${zone}, so it cannot transfer it`);
  }
  const fetchWith: string[] = [];
  for (const id of ids.slave_tsig_key_ids ?? []) fetchWith.push((await own(id)).name);
  if (fetchWith.length > 0 && !secondary) throw unprocessable('slave_tsig_key_ids: a primary zone fetches nothing from a primary; give them to a zone of kind Slave');
  if (fetchWith.length > 1) throw unprocessable("slave_tsig_key_ids: zonedeck signs a secondary zone's transfers with one key");
  return fetchWith[0] ?? null;
}
