/**
 * A secondary zone's primaries: IP literals with a port (`192.0.2.1:53`, `[2001:db8::1]:53`; a bare
 * address means port 53), at most MAX_PRIMARIES, no repeats. Names are refused: a primary is asked
 * by address, so that what the zone follows does not move with someone else's DNS.
 */
import ipaddr from 'ipaddr.js';
import { RuleError } from './errors';

export const MAX_PRIMARIES = 10;

/** The address in its usual form (IPv6 lower case, compressed), or a RuleError. */
function address(text: string): string {
  const ok = ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));
  if (!ok) throw new RuleError(`"${text}" is not an IP address: give primaries by address, as 192.0.2.1:53 or [2001:db8::1]:53`);
  const ip = ipaddr.parse(text);
  const range = ip.range();
  if (range === 'unspecified' || range === 'multicast' || range === 'broadcast') throw new RuleError(`${text} cannot be a primary (${range})`);
  return ip.toString();
}

/** One primary as `host:port` (`[v6]:port`), normalized. */
export function parsePrimary(text: string): string {
  const t = text.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  const v4 = /^([0-9.]+)(?::(\d+))?$/.exec(t);
  const [host, portText] = bracketed ? [bracketed[1]!, bracketed[2]] : v4 ? [v4[1]!, v4[2]] : [t, undefined];
  const ip = address(host);
  const port = portText === undefined ? 53 : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RuleError(`${t}: the port must be 1 to 65535`);
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** The list of a secondary's primaries, normalized; a RuleError naming what is wrong. */
export function parsePrimaries(list: readonly string[]): string[] {
  if (list.length === 0) throw new RuleError('a secondary zone needs at least one primary');
  if (list.length > MAX_PRIMARIES) throw new RuleError(`at most ${MAX_PRIMARIES} primaries`);
  const out: string[] = [];
  for (const text of list) {
    const p = parsePrimary(text);
    if (out.includes(p)) throw new RuleError(`${p} is listed twice`);
    out.push(p);
  }
  return out;
}
