/**
 * The PowerDNS metadata kinds of a zone's own transfers, read and written as zonedeck's zone
 * settings (`PUT /api/v1/domains/:name`): ALLOW-AXFR-FROM is `allow_transfer`, ALSO-NOTIFY is
 * `also_notify` and TSIG-ALLOW-AXFR is `transfer_tsig_key` (one key per zone). PowerDNS writes an
 * ALSO-NOTIFY address without a port for port 53; zonedeck answers it with the port. `AUTO-NS`
 * (every name server of the NS set) has no meaning here: zonedeck's NS set is its own servers.
 */
import { transferList } from '../../core/zone-transfers';
import type { TransferSettingsInput } from '../../services/zones/zones';
import type { DomainRow } from '../../store/types';
import { unprocessable } from '../errors';

export const TRANSFER_KINDS = ['ALLOW-AXFR-FROM', 'ALSO-NOTIFY', 'TSIG-ALLOW-AXFR'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

export const isTransferKind = (kind: string): kind is TransferKind => (TRANSFER_KINDS as readonly string[]).includes(kind);

/** The kind's values as the zone holds them now. */
export function transferValues(zone: DomainRow, kind: TransferKind): string[] {
  if (kind === 'ALLOW-AXFR-FROM') return transferList(zone.allow_transfer);
  if (kind === 'ALSO-NOTIFY') return transferList(zone.also_notify);
  return zone.transfer_tsig_key ? [zone.transfer_tsig_key] : [];
}

/** PowerDNS's `192.0.2.1` and `2001:db8::1` (port 53 implied) in zonedeck's `host:port` form; anything else as given, for the rules to judge. */
const withPort = (v: string) => (/^[0-9.]+$/.test(v) ? `${v}:53` : !v.startsWith('[') && (v.match(/:/g)?.length ?? 0) > 1 ? `[${v}]:53` : v);

/**
 * The settings change that makes the kind hold `given` (PUT, and DELETE with none) or its values
 * and `given` (POST adds, as PowerDNS's does). 422 for what zonedeck cannot keep.
 */
export function transferPatch(zone: DomainRow, kind: TransferKind, given: readonly string[], add: boolean): TransferSettingsInput {
  const values = add ? [...new Set([...transferValues(zone, kind), ...given])] : [...given];
  if (kind === 'ALLOW-AXFR-FROM') {
    if (values.some((v) => v.toUpperCase() === 'AUTO-NS'))
      throw unprocessable("metadata: ALLOW-AXFR-FROM 'AUTO-NS' has no meaning in zonedeck (its NS set is its own servers): list the secondaries' networks");
    return { allow_transfer: values };
  }
  if (kind === 'ALSO-NOTIFY') return { also_notify: [...new Set(values.map(withPort))] };
  const keys = [...new Set(values.map((v) => v.toLowerCase().replace(/\.$/, '')))];
  if (keys.length > 1) throw unprocessable('metadata: TSIG-ALLOW-AXFR takes one key in zonedeck: the key transfers from ALLOW-AXFR-FROM must be signed with');
  return { transfer_tsig_key: keys[0] ?? null };
}
