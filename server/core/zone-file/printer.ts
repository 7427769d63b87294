/**
 * Writes a zone as an RFC 1035 master file that named-checkzone, Knot and NSD read:
 * `$ORIGIN`, `$TTL`, the SOA, the apex NS set, then every record in canonical name order
 * (RFC 4034 §6.1), each with its TTL and class; names in rdata absolute with the trailing dot,
 * character-strings quoted with everything outside printable ASCII as `\DDD`. The output
 * depends only on the records, never on their order, so printing is stable.
 */
import { APEX } from '../domain-name';
import { RECORD_TYPE_BY_NAME } from '../record-types';
import type { SoaFields } from './types';

export interface PrintableSoa extends SoaFields {
  /** TTL of the SOA record (default: minimum, as RFC 2308 §4 has negative answers use). */
  ttl?: number;
}

export interface PrintableRecord {
  /** Relative to the zone, '@' for the apex. */
  name: string;
  record_type: string;
  ttl: number;
  content: string;
}

const dotted = (name: string): string => (name === '.' || name === '' ? '.' : `${name.replace(/\.$/, '')}.`);

/** Sorts names as RFC 4034 §6.1 orders them: by labels right to left; the apex first. */
function nameKey(name: string): string {
  return name === APEX ? '' : name.split('.').reverse().join('\u0000');
}

/**
 * `notes`: a comment line to print before an RRset, by `"<name> <type>"` (a health-checked pool's
 * set says it is the pool's answer at the time of the export).
 */
export function printZoneFile(origin: string, soa: PrintableSoa, records: readonly PrintableRecord[], notes?: ReadonlyMap<string, string>): string {
  const zone = origin.replace(/\.$/, '').toLowerCase();
  const rows = records.map((r) => {
    const type = RECORD_TYPE_BY_NAME.get(r.record_type);
    if (!type) throw new Error(`printZoneFile: ${r.record_type} is not a record type of the registry`);
    // ALIAS is no type BIND, Knot or NSD know: it goes out in RFC 3597 generic form under its
    // code (which our parser, like PowerDNS's, reads back), after a comment saying what it is.
    if (type.synthetic) {
      const wire = type.toWire(r.content);
      const hex = Array.from(wire, (b) => b.toString(16).padStart(2, '0')).join('');
      const rdata = `\\# ${wire.length} ${hex.toUpperCase()}`;
      const note = `; ${r.record_type} ${type.zoneText(r.content)} (the A and AAAA here are this name's addresses, resolved by zonedeck)`;
      return { key: nameKey(r.name), rank: 1, r, rdata, typeText: `TYPE${type.code}`, note };
    }
    return { key: nameKey(r.name), rank: r.record_type === 'NS' && r.name === APEX ? 0 : 1, r, rdata: type.zoneText(r.content), typeText: r.record_type, note: '' };
  });
  rows.sort(
    (a, b) =>
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      a.rank - b.rank ||
      (a.r.record_type < b.r.record_type ? -1 : a.r.record_type > b.r.record_type ? 1 : 0) ||
      (a.rdata < b.rdata ? -1 : a.rdata > b.rdata ? 1 : 0),
  );
  const soaTtl = soa.ttl ?? soa.minimum;
  const lines = [
    `$ORIGIN ${dotted(zone)}`,
    `$TTL ${soa.minimum}`,
    `@\t${soaTtl}\tIN\tSOA\t${dotted(soa.mname)} ${dotted(soa.rname)} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`,
  ];
  let last = '';
  for (const { r, rdata, typeText, note } of rows) {
    const set = `${r.name} ${r.record_type}`;
    const setNote = set !== last ? notes?.get(set) : undefined;
    last = set;
    if (setNote) lines.push(`; ${setNote}`);
    if (note) lines.push(note);
    lines.push(`${r.name}\t${r.ttl}\tIN\t${typeText}\t${rdata}`);
  }
  return `${lines.join('\n')}\n`;
}
