/** Address lists such as AXFR_ALLOW: CIDR blocks or single addresses, IPv4-mapped IPv6 included. */
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export function parseAcl(entries: string[]): Range[] {
  return entries.map((e) => {
    try {
      if (e.includes('/')) return ipaddr.parseCIDR(e);
      const addr = ipaddr.parse(e);
      return [addr, addr.kind() === 'ipv4' ? 32 : 128] as Range;
    } catch {
      throw new Error(`"${e}" is not an IP address or CIDR block such as 192.0.2.0/24`);
    }
  });
}

/** Whether `address` (as a socket reports it) lies in one of the ranges. */
export function aclAllows(acl: Range[], address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return acl.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}
