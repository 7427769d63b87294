/**
 * The rules of a primary zone's own transfers, shared by the API, the PowerDNS API and the
 * dashboard: the secondaries NOTIFY (RFC 1996) also goes to (`also_notify`, IP literals with a
 * port, as SECONDARIES takes them) and the networks that may AXFR/IXFR the zone (`allow_transfer`,
 * as AXFR_ALLOW takes them). Each list is stored as the JSON text of its canonical form, so that
 * two equal lists are equal text (a change set records a setting that changed, by its value).
 */
import ipaddr from 'ipaddr.js';
import { RuleError } from './errors';

/** Most NOTIFY targets one zone may list. */
export const MAX_ALSO_NOTIFY = 20;
/** Most networks one zone may let transfer it. */
export const MAX_ALLOW_TRANSFER = 50;

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/** An IP literal (no host name, no zone index), or null. */
function ipLiteral(text: string): Addr | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) {
    // 010.0.0.1 is octal to some parsers and decimal to others: refused rather than guessed.
    return text.split('.').some((o) => o.length > 1 && o.startsWith('0')) ? null : ipaddr.IPv4.parse(text);
  }
  return text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : null;
}

const canonical = (addr: Addr) => (addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toRFC5952String() : addr.toString());

/** One NOTIFY target in canonical form: `192.0.2.1:53`, `[2001:db8::1]:53`. Throws RuleError. */
export function canonicalNotifyTarget(text: string): string {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text) ?? /^([^:[\]]+):(\d{1,5})$/.exec(text);
  const addr = m && ipLiteral(m[1]!);
  if (!m || !addr || (m[0].startsWith('[') && addr.kind() !== 'ipv6')) {
    throw new RuleError(`"${text.slice(0, 80)}" is not an IP address and port such as 192.0.2.1:53 or [2001:db8::1]:53`);
  }
  const port = Number(m[2]);
  if (port < 1 || port > 65535) throw new RuleError(`"${text.slice(0, 80)}": the port must be 1–65535`);
  return addr.kind() === 'ipv6' ? `[${canonical(addr)}]:${port}` : `${canonical(addr)}:${port}`;
}

/** One network in canonical form: `192.0.2.0/24`, `2001:db8::/32`, or a single address. Throws RuleError. */
export function canonicalTransferNetwork(text: string): string {
  const [address, bits, more] = text.split('/');
  const addr = ipLiteral(address ?? '');
  const max = addr?.kind() === 'ipv6' ? 128 : 32;
  const ok = addr && more === undefined && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max));
  if (!ok) throw new RuleError(`"${text.slice(0, 80)}" is not an IP address or CIDR block such as 192.0.2.0/24 or 2001:db8::/32`);
  return bits === undefined ? canonical(addr) : `${canonical(addr)}/${Number(bits)}`;
}

function canonicalList(list: readonly string[], max: number, entry: (text: string) => string, what: string): string[] {
  if (list.length > max) throw new RuleError(`must list at most ${max} ${what}`);
  const out: string[] = [];
  for (const text of list) {
    const c = entry(text.trim());
    if (out.includes(c)) throw new RuleError(`lists ${c} twice`);
    out.push(c);
  }
  return out;
}

/** `also_notify` in canonical form: at most MAX_ALSO_NOTIFY, no duplicates. Throws RuleError. */
export const canonicalAlsoNotify = (list: readonly string[]): string[] => canonicalList(list, MAX_ALSO_NOTIFY, canonicalNotifyTarget, 'NOTIFY targets');

/** `allow_transfer` in canonical form: at most MAX_ALLOW_TRANSFER, no duplicates. Throws RuleError. */
export const canonicalAllowTransfer = (list: readonly string[]): string[] => canonicalList(list, MAX_ALLOW_TRANSFER, canonicalTransferNetwork, 'networks');

/** A stored list (the JSON text of a canonical list; absent: empty) as its entries. */
export function transferList(stored: string | undefined): string[] {
  if (!stored) return [];
  const list: unknown = JSON.parse(stored);
  return Array.isArray(list) ? list.filter((e): e is string => typeof e === 'string') : [];
}

/** A change set's settings as the API shows them: the transfer lists as lists, not as the JSON text they are kept as. */
export function settingsWithLists(settings: Record<string, [unknown, unknown]>): Record<string, [unknown, unknown]> {
  if (!('also_notify' in settings) && !('allow_transfer' in settings)) return settings;
  const list = (v: unknown) => (typeof v === 'string' ? transferList(v) : v);
  const out = { ...settings };
  for (const f of ['also_notify', 'allow_transfer'] as const) if (out[f]) out[f] = [list(out[f][0]), list(out[f][1])];
  return out;
}
