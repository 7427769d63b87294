/**
 * Whether an address typed into an A/AAAA record lies in the user's registered IPs: the
 * editor suggests those and warns (without blocking) when an address is outside them or
 * only inside inactive ones; a user with no ranges of the address's family gets no warning.
 */
import { rangeContains } from '../../server/core/ip-range';
import type { Ip } from './api-types';

export type IpAdvice = { kind: 'ok'; range: Ip } | { kind: 'inactive'; range: Ip } | { kind: 'outside' } | { kind: 'none' };

const label = (ip: Ip) => (ip.first === ip.last ? ip.address : `${ip.address}/${ip.cidr}`);

export function ipAdvice(address: string, ips: readonly Ip[] | undefined, family: 'A' | 'AAAA'): IpAdvice {
  const text = address.trim();
  // "Outside your ranges" means something only once there are ranges of the address's family.
  const ranges = (ips ?? []).filter((ip) => (family === 'A' ? ip.ipv4 : ip.ipv6));
  if (ranges.length === 0 || text === '') return { kind: 'none' };
  const containing = ranges.filter((ip) => rangeContains(ip, text));
  if (containing.length === 0) return { kind: 'outside' };
  // The narrowest active range wins; inactive only when no active one holds it.
  const active = containing.filter((ip) => ip.active).sort((a, b) => b.cidr - a.cidr);
  if (active[0]) return { kind: 'ok', range: active[0] };
  return { kind: 'inactive', range: containing.sort((a, b) => b.cidr - a.cidr)[0]! };
}

export function adviceText(a: IpAdvice): string | undefined {
  switch (a.kind) {
    case 'outside':
      return 'This address is not in your registered IPs.';
    case 'inactive':
      return `This address is in ${label(a.range)}, which is inactive.`;
    default:
      return undefined;
  }
}

export function adviceHint(a: IpAdvice): string | undefined {
  return a.kind === 'ok' ? `In your registered ${a.range.first === a.range.last ? 'address' : 'range'} ${label(a.range)}.` : undefined;
}

/** Suggestions for the address input: single addresses as they are, ranges by their first address. */
export function ipSuggestions(ips: readonly Ip[] | undefined, family: 'A' | 'AAAA'): Array<{ value: string; label: string }> {
  return (ips ?? [])
    .filter((ip) => ip.active && (family === 'A' ? ip.ipv4 : ip.ipv6))
    .map((ip) => ({ value: ip.first === ip.last ? ip.address : ip.first, label: ip.first === ip.last ? 'registered address' : `range ${ip.address}/${ip.cidr} (to ${ip.last})` }));
}
