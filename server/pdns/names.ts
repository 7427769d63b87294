/**
 * Names as the PowerDNS API writes them: absolute with the trailing dot, and zone ids in
 * URLs in its own escape form, where every octet outside letters, digits, `.` and `-` is
 * `=XX` (pdns/ws-api.cc: `apiZoneNameToId`, `apiZoneIdToName`). Percent-escapes are decoded
 * by the router before these functions see the id.
 */
import { APEX, toFqdn } from '../core/domain-name';
import { PdnsError } from './errors';

/** An absolute name with the trailing dot, as PowerDNS prints names. */
export const dotted = (name: string): string => (name.endsWith('.') ? name : `${name}.`);

/** A zonedeck record name (relative, `@` for the apex) as PowerDNS names it. */
export const absoluteName = (name: string, zone: string): string => dotted(toFqdn(name, zone));

/** The zone id PowerDNS would give a zone: its name with the dot, odd octets as `=XX`. */
export function zoneId(zone: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(dotted(zone))) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9.-]/.test(c) ? c : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The zone name an id in a URL means (lower case, no trailing dot); `=XX` escapes decoded. */
export function zoneNameOfId(id: string): string {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < id.length; i++) {
    if (id[i] === '=') {
      const hex = id.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new PdnsError(400, `the zone id ${id} has a bad =XX escape`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of encoder.encode(id[i]!)) bytes.push(b);
    }
  }
  const name = new TextDecoder().decode(Uint8Array.from(bytes)).toLowerCase();
  // At most one trailing dot: `example.org..` names no zone.
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.endsWith('.')) throw new PdnsError(404, "Could not find domain '" + id.slice(0, 100) + "'");
  return bare;
}

/** The URL of a zone in the API. */
export const zoneUrl = (zone: string) => `/api/v1/servers/localhost/zones/${zoneId(zone)}`;

/** PowerDNS names are always absolute: a name sent without the trailing dot is read as absolute too. */
export const asAbsolute = (name: string): string => {
  const t = name.trim();
  return t === '' || t === APEX ? t : dotted(t);
};
