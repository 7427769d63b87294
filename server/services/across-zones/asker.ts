/** Who asks for work across zones: the user and their credential's scope, and the zones they may name. */
import { MAX_NAME_LENGTH } from '../../core/domain-name';
import { Forbidden, Invalid } from '../../core/errors';
import { allowsZone, isRestricted, type Scope } from '../../core/scope';
import type { DomainRow } from '../../store/types';
import type { Zones } from '../zones/zones';

/** Who asks: the user and their credential's scope. */
export interface Asker {
  userId: number;
  scope?: Scope;
  /** An administrator's search of every account's zones (never a bulk change: that stays their own). */
  allAccounts?: boolean;
}

/** A zone the asker may read (404 otherwise, as for a missing one) and their scope admits (403); `field` names it in a 400. */
export async function askedZone(zones: Zones, asker: Asker, name: string, field: string): Promise<DomainRow> {
  if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH + 1) throw Invalid.field(field, 'must be a domain name');
  const zone = await zones.owned(asker.userId, name);
  if (asker.scope && !allowsZone(asker.scope, zone.name)) throw new Forbidden(`this token's scope does not include the zone ${zone.name}`);
  return zone;
}

/** Account settings (templates): a credential limited in any way (zones, names, types, read-only, addresses) may not make or change them. */
export function unscoped(asker: Asker, what: string): void {
  if (asker.scope && isRestricted(asker.scope)) throw new Forbidden(`a token or key with a scope cannot ${what} templates: they are account settings, used on every zone of the account`);
}
