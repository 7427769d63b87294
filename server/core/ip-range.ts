/**
 * IP addresses and CIDR ranges as registered to a user: canonical text
 * (RFC 5952 for IPv6), prefix length, first and last address of the range.
 */
import ipaddr from 'ipaddr.js';
import { RuleError } from './errors';

export interface IpRange {
  address: string;
  cidr: number;
  ipv4: boolean;
  ipv6: boolean;
  first: string;
  last: string;
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

function canonical(addr: Addr): string {
  return addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toRFC5952String() : addr.toString();
}

/** A dotted-quad IPv4 address in canonical form; throws RuleError. */
export function canonicalIpv4(text: string): string {
  if (!/^[0-9]{1,3}(\.[0-9]{1,3}){3}$/.test(text)) throw new RuleError('must be an IPv4 address such as 192.0.2.1');
  if (text.split('.').some((o) => o.length > 1 && o.startsWith('0'))) {
    throw new RuleError('must not have leading zeros in an IPv4 octet (ambiguous: octal or decimal)');
  }
  if (!ipaddr.IPv4.isValidFourPartDecimal(text)) throw new RuleError('must be an IPv4 address such as 192.0.2.1 (octets 0–255)');
  return ipaddr.IPv4.parse(text).toString();
}

/** An IPv6 address in RFC 5952 canonical form; throws RuleError. */
export function canonicalIpv6(text: string): string {
  if (!text.includes(':') || text.includes('%') || !ipaddr.IPv6.isValid(text)) throw new RuleError('must be an IPv6 address such as 2001:db8::1');
  return ipaddr.IPv6.parse(text).toRFC5952String();
}

function parseAddress(text: string): Addr {
  if (/^[0-9.]+$/.test(text)) return ipaddr.IPv4.parse(canonicalIpv4(text));
  if (text.includes(':')) return ipaddr.IPv6.parse(canonicalIpv6(text));
  throw new RuleError('must be an IPv4 or IPv6 address, optionally with a /prefix');
}

function toBytes(addr: Addr): number[] {
  return addr.toByteArray();
}

function fromBytes(bytes: number[]): Addr {
  return ipaddr.fromByteArray(bytes);
}

/** First and last address of `addr/cidr`. */
function bounds(addr: Addr, cidr: number): [Addr, Addr] {
  const bytes = toBytes(addr);
  const first = bytes.map((b, i) => b & maskByte(cidr, i));
  const last = bytes.map((b, i) => (b & maskByte(cidr, i)) | (~maskByte(cidr, i) & 0xff));
  return [fromBytes(first), fromBytes(last)];
}

function maskByte(cidr: number, index: number): number {
  const bits = Math.min(8, Math.max(0, cidr - index * 8));
  return (0xff << (8 - bits)) & 0xff;
}

/**
 * Parses `192.0.2.1`, `198.51.100.0/24`, `2001:db8::/32`. A range with host bits set is
 * rejected (as Python's ipaddress does), naming the network that was probably meant.
 */
export function parseIpRange(input: string): IpRange {
  const text = input.trim();
  const slash = text.indexOf('/');
  const addrText = slash === -1 ? text : text.slice(0, slash);
  const addr = parseAddress(addrText);
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  let cidr = max;
  if (slash !== -1) {
    const p = text.slice(slash + 1);
    if (!/^[0-9]{1,3}$/.test(p) || Number(p) > max) throw new RuleError(`prefix length must be a whole number from 0 to ${max}`);
    cidr = Number(p);
  }
  const [first, last] = bounds(addr, cidr);
  if (canonical(first) !== canonical(addr)) {
    throw new RuleError(`has host bits set; the network is ${canonical(first)}/${cidr}`);
  }
  const address = canonical(addr);
  return {
    address,
    cidr,
    ipv4: addr.kind() === 'ipv4',
    ipv6: addr.kind() === 'ipv6',
    first: canonical(first),
    last: canonical(last),
  };
}

/** Whether the address `ip` (any text form) lies in `range`; false for a non-address. */
export function rangeContains(range: Pick<IpRange, 'address' | 'cidr'>, ip: string): boolean {
  let addr: Addr;
  let net: Addr;
  try {
    addr = ipaddr.parse(ip);
    net = ipaddr.parse(range.address);
  } catch {
    return false;
  }
  if (addr.kind() !== net.kind()) return false;
  return (addr as ipaddr.IPv4).match(net as ipaddr.IPv4, range.cidr);
}

/** Ranges an ALIAS answer never carries unless ALIAS_ALLOW_PRIVATE: what only the inside of a network reaches. */
const INTERNAL_RANGES = new Set(['private', 'loopback', 'linkLocal', 'uniqueLocal', 'unspecified', 'carrierGradeNat', 'broadcast', 'multicast', 'deprecatedSiteLocal']);

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 addresses an IPv6 address stands for, where a translator, a relay or the host's own
 * stack would carry a packet on to them: IPv4-mapped `::ffff:0:0/96` and IPv4-compatible `::/96`
 * (RFC 4291 §2.5.5), IPv4-translated `::ffff:0:0:0/96` (RFC 6145), NAT64's well-known prefix
 * `64:ff9b::/96` (RFC 6052), 6to4 `2002::/16` (RFC 3056: bits 16–48) and Teredo `2001::/32`
 * (RFC 4380: the server at bits 32–64, the client's address inverted in the last 32). Empty for
 * any other address.
 */
export function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = ip.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (p[5] === 0 || p[5] === 0xffff)) return [v4(p[6]!, p[7]!)];
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4(p[6]!, p[7]!)];
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return [v4(p[6]!, p[7]!)];
  if (p[0] === 0x2002) return [v4(p[1]!, p[2]!)];
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
  return [];
}

/**
 * Whether an address may be published as an ALIAS answer or asked by the check from outside: not
 * in an internal range, and, for an IPv6 spelling of IPv4 (embeddedIpv4), neither is the IPv4 it
 * stands for. NAT64's local-use prefix `64:ff9b:1::/48` (RFC 8215) is a network's own: internal.
 */
export function isPublicAddress(address: string): boolean {
  try {
    const ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv4') return !INTERNAL_RANGES.has(ip.range());
    const v6 = ip as ipaddr.IPv6;
    if (v6.parts[0] === 0x64 && v6.parts[1] === 0xff9b && v6.parts[2] === 1) return false;
    const inner = embeddedIpv4(v6);
    if (inner.length > 0) return inner.every((a) => !INTERNAL_RANGES.has(a.range()));
    return !INTERNAL_RANGES.has(v6.range());
  } catch {
    return false;
  }
}
