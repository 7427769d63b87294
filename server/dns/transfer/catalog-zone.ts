/**
 * The catalog zone (RFC 9432, version 2) that lists every hosted zone, for secondaries that
 * follow a catalog (Knot's `catalog-role: interpret`, BIND's `catalog-zones`): an apex SOA
 * and `NS invalid.` (§4.1, the zone is never queried for real), `version TXT "2"` (§4.2), and
 * one `<unique-label>.zones PTR <zone>` per member (§4.3). It is built from the store, so every
 * node serves the same zone at the serial the store keeps (moved on with each zone created or
 * deleted). Not a row of `domains`: no API can write it, and its id is one no zone has.
 */
import { createHash } from 'node:crypto';
import { APEX } from '../../core/domain-name';
import type { DomainRow, RecordRow } from '../../store/types';
import { Zone, type ZoneIdentity } from '../index/zone';

/** The id of the catalog zone: no row of `domains` has it, so its IXFR finds no history (whole zone). */
export const CATALOG_ID = 0;

/**
 * A member's unique label (§4.3): stable for the life of the zone and new when a zone of that
 * name is deleted and created again (a new row), which tells consumers to drop the old zone's
 * data (§5.4). From the row's id and creation time, so a reused id never repeats a label.
 */
export function memberLabel(zone: Pick<DomainRow, 'id' | 'created_at'>): string {
  return createHash('sha256').update(`${zone.id} ${zone.created_at}`).digest('hex').slice(0, 20);
}

/** What the catalog zone's SOA says: refresh and retry as a safety net for lost NOTIFYs; a long expire. */
const TIMERS = { refresh_interval: 3600, retry_interval: 600, expire_interval: 2_419_200, minimum_ttl: 0 };

export function catalogZone(name: string, serial: number, members: readonly Pick<DomainRow, 'id' | 'name' | 'created_at'>[], identity: ZoneIdentity): Zone {
  const at = new Date(0).toISOString();
  const domain: DomainRow = { id: CATALOG_ID, user_id: 0, name, serial_number: serial, ...TIMERS, dnssec_enabled: false, delegated: false, created_at: at, updated_at: at };
  const row = (rel: string, record_type: string, content: string): RecordRow => ({
    id: 0,
    domain_id: CATALOG_ID,
    name: rel,
    record_type,
    content,
    ttl: 0,
    created_at: at,
    updated_at: at,
    disabled: 0,
  });
  const records = [row(APEX, 'NS', 'invalid'), row('version', 'TXT', '2'), ...members.map((m) => row(`${memberLabel(m)}.zones`, 'PTR', m.name))];
  return new Zone(domain, records, identity);
}

/** Whether a built catalog lists exactly these zones (so it need not be built again). */
export function listsExactly(catalog: Zone, members: readonly Pick<DomainRow, 'id' | 'created_at'>[]): boolean {
  let n = 0;
  for (const m of members) {
    if (!catalog.nodes.has(`${memberLabel(m)}.zones.${catalog.name}`)) return false;
    n++;
  }
  // The apex and version.<catalog>, then one node per member.
  return catalog.nodes.size === n + 2;
}
