/**
 * The client a request counts against, for response rate limiting (rrl.ts) and the TCP
 * listener's connections per client (tcp-clients.ts): the /24 of an IPv4 address, the /56 of an
 * IPv6 one (what one client, a home or a host, is likely to hold), an IPv6 spelling of an IPv4
 * address (IPv4-mapped) as that IPv4.
 */
import ipaddr from 'ipaddr.js';

const prefixMemo = new Map<string, string>();

/** The client's network, as a key (not an address): its /24 or /56. Remembered for the last few thousand IPv6 addresses. */
export function clientPrefix(address: string): string {
  const dot = address.lastIndexOf('.');
  if (dot > 0 && !address.includes(':')) return address.slice(0, dot);
  let p = prefixMemo.get(address);
  if (p !== undefined) return p;
  try {
    const a = ipaddr.process(address);
    if (a.kind() === 'ipv4') p = a.toString().slice(0, a.toString().lastIndexOf('.'));
    else {
      const b = a.toByteArray();
      p = Buffer.from(b.slice(0, 7)).toString('hex');
    }
  } catch {
    p = address;
  }
  if (prefixMemo.size >= 4096) prefixMemo.clear();
  prefixMemo.set(address, p);
  return p;
}
