/**
 * Names no tenant may create: public suffixes, from the Public Suffix List as the maintained
 * `tldts` package carries it (ICANN and private sections: `co.uk`, `github.io`,
 * `s3.amazonaws.com`, and every `*.ck`), and the service's own domains — the registrable domain of
 * each name server (NAMESERVERS), of HOSTMASTER, and the catalog zone — with anything inside or
 * around them. A tenant holding `co.uk` would lock every other tenant out of its children; one
 * holding `zonedeck.test` would answer for `ns1.zonedeck.test`. An administrator may hold the
 * service's own domains as zones of its own (not a team's), so that an operator can serve the zone
 * of its name servers, with their glue, from the service itself; the catalog zone's own names stay
 * the service's (zone-rules.ts refuses them to everyone).
 */
import { parse } from 'tldts';
import { isInZone } from '../../core/domain-name';

/** The registrable domain of a host name (`zonedeck.test` for `ns1.zonedeck.test`), or the name itself. */
function registrable(host: string): string {
  const name = host.toLowerCase().replace(/\.$/, '');
  return parse(name, { allowPrivateDomains: true }).domain ?? name;
}

/** Whether `name` (normalized) is a public suffix itself. */
export function isPublicSuffix(name: string): boolean {
  // RFC 2317 labels hold '/', which a URL parser would read as a path: judge the name without it.
  const host = name.replace(/\//g, '-');
  return parse(host, { allowPrivateDomains: true }).publicSuffix === host;
}

/** The service's own domains, from its configuration. */
export function reservedDomains(config: { nameservers: readonly string[]; hostmaster?: string; catalogZone?: string }): string[] {
  const out = new Set(config.nameservers.map(registrable));
  if (config.hostmaster) out.add(registrable(config.hostmaster));
  if (config.catalogZone) out.add(registrable(config.catalogZone));
  return [...out];
}

/**
 * Why `name` (normalized) may not be held by its would-be holder, or null: `adminAlone` when that is
 * an administrator holding it alone (no team), who may hold the service's own domains.
 */
export function reservedRefusal(name: string, reserved: readonly string[], adminAlone = false): string | null {
  if (isPublicSuffix(name)) return `is a public suffix (Public Suffix List): its names belong to many owners, so no account may hold it; create a domain below it, like example.${name}`;
  if (adminAlone) return null;
  const clash = reserved.find((r) => isInZone(name, r) || isInZone(r, name));
  if (clash)
    return `${name === clash ? 'is' : isInZone(name, clash) ? 'lies inside' : 'contains'} ${clash}, which this service uses for its own name servers (NAMESERVERS, HOSTMASTER, CATALOG_ZONE); only an administrator may hold it, as a zone of its own, not a team's`;
  return null;
}
