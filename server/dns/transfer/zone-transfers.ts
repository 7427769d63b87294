/**
 * A primary zone's own transfers as the DNS thread uses them: who besides AXFR_ALLOW may transfer
 * the zone (`allow_transfer`, with its key when the zone names one) and whom NOTIFY also goes to
 * (`also_notify`, signed with that key). Each list is parsed once per domain row (a row is
 * replaced, never edited, when the zone changes), not once per query.
 */
import { parseHostPort } from '../../core/host-port';
import { transferList } from '../../core/zone-transfers';
import type { DomainRow } from '../../store/types';
import type { Zone } from '../index/zone';
import type { DnsKey, KeyLookup, SignedRequest } from '../tsig/keyring';
import { aclAllows, parseAcl } from './acl';
import type { ZoneNotifyTarget } from './notify';

type Acl = ReturnType<typeof parseAcl>;

const acls = new WeakMap<DomainRow, Acl>();
const targets = new WeakMap<DomainRow, ReturnType<typeof parseHostPort>[]>();

/** A stored list the API wrote canonical; a row written by hand that does not parse opens nothing. */
function parsed<T>(cache: WeakMap<DomainRow, T>, domain: DomainRow, parse: () => T, empty: T): T {
  let value = cache.get(domain);
  if (value === undefined) {
    try {
      value = parse();
    } catch {
      value = empty;
    }
    cache.set(domain, value);
  }
  return value;
}

/** Whether the key's owner holds the zone: its user, or for a team's zone any member (every role reads). */
export function keyHoldsZone(key: DnsKey, domain: DomainRow): boolean {
  const team = domain.team_id;
  return team != null ? Boolean(key.teams?.has(team)) : key.userId === domain.user_id;
}

/**
 * Whether the zone's own `allow_transfer` lets this address transfer it: the address lies in one
 * of its networks and, when the zone names a key, the request was signed with that key (still
 * its owner's: a name freed and taken by another account signs nothing here).
 */
export function zoneAllowsTransfer(zone: Zone, address: string, signed: SignedRequest | null): boolean {
  const domain = zone.domain;
  const acl = parsed(acls, domain, () => parseAcl(transferList(domain.allow_transfer)), []);
  if (acl.length === 0 || !aclAllows(acl, address)) return false;
  const key = domain.transfer_tsig_key;
  return !key || (signed !== null && signed.key.name === key && keyHoldsZone(signed.key, domain));
}

/**
 * The zone's own NOTIFY targets, each with the zone's key when it names one. A key that is gone
 * (revoked) or no longer its owner's: the targets are skipped and `onError` says why, rather
 * than sending a NOTIFY the secondary would drop as unsigned.
 */
export function zoneNotifyTargets(domain: DomainRow, keys: KeyLookup, onError: (err: unknown) => void): ZoneNotifyTarget[] {
  const list = parsed(targets, domain, () => transferList(domain.also_notify).map(parseHostPort), []);
  if (list.length === 0) return [];
  const name = domain.transfer_tsig_key;
  if (!name) return list;
  const key = keys.get(name);
  if (!key || !keyHoldsZone(key, domain)) {
    onError(new Error(`${domain.name}: also_notify is signed with the TSIG key ${name}, which its owner no longer holds; NOTIFY not sent to ${list.length} target(s)`));
    return [];
  }
  return list.map((t) => ({ ...t, tsig: key }));
}
