/**
 * Domain and record names: normalization (lower case, no trailing dot, IDN to
 * punycode) and validation (RFC 1035 §2.3.4 lengths, RFC 1123 §2.1 host labels,
 * `_` allowed in record labels as used by RFC 8552 service names, `*` only as a
 * whole leftmost label per RFC 4592 §2.1.1).
 */
import { RuleError } from './errors';

export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;
/** The stored and returned name of a record at the zone apex. */
export const APEX = '@';

const ZONE_LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const RECORD_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;
/**
 * Under the reverse trees a label may hold `/`: RFC 2317 §4 names classless delegations
 * `0/26.2.0.192.in-addr.arpa`, and octoDNS and PowerDNS write them so.
 */
const REVERSE_ZONE_LABEL = /^[a-z0-9]([a-z0-9/-]*[a-z0-9])?$/;
const REVERSE_RECORD_LABEL = /^[a-z0-9_]([a-z0-9_/-]*[a-z0-9_])?$/;
const isReverse = (name: string) => /(^|\.)(in-addr|ip6)\.arpa$/.test(name);

/** IDN to ASCII (UTS #46, as browsers do) through the platform URL parser. */
function toAscii(name: string): string {
  // Only non-ASCII input goes through URL: it would also rewrite numeric hosts as IPv4.
  if (/^[\x00-\x7f]*$/.test(name)) return name.toLowerCase();
  let host: string;
  try {
    host = new URL(`http://${name}/`).hostname;
  } catch {
    throw new RuleError('is not a valid internationalized domain name');
  }
  return host;
}

/** A label quoted in a message, cut to a readable length. */
const quoted = (label: string) => `"${label.length > 40 ? `${label.slice(0, 32)}…` : label}"`;

function checkLabels(labels: string[], pattern: RegExp, what: string, allowWildcard: boolean): void {
  labels.forEach((label, i) => {
    if (label.length === 0) throw new RuleError('must not contain empty labels (two dots in a row, or a leading dot)');
    if (label.length > MAX_LABEL_LENGTH) throw new RuleError(`label ${quoted(label)} is longer than ${MAX_LABEL_LENGTH} characters`);
    if (label === '*') {
      if (allowWildcard && i === 0) return;
      throw new RuleError('"*" is allowed only as the whole leftmost label');
    }
    if (!pattern.test(label)) {
      throw new RuleError(`label ${quoted(label)} may contain only ${what}, and must not start or end with a hyphen`);
    }
  });
}

/** A zone name as stored: lower case, punycode, no trailing dot; at least two labels. */
export function normalizeZoneName(input: string): string {
  let name = input.trim();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '') throw new RuleError('must not be empty');
  name = toAscii(name);
  if (name.length > MAX_NAME_LENGTH) throw new RuleError(`must be at most ${MAX_NAME_LENGTH} characters`);
  const labels = name.split('.');
  checkLabels(labels, isReverse(name) ? REVERSE_ZONE_LABEL : ZONE_LABEL, isReverse(name) ? 'letters, digits, hyphens and (RFC 2317) slashes' : 'letters, digits and hyphens', false);
  if (labels.length < 2) throw new RuleError('must have at least two labels, like example.com');
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) throw new RuleError('must not end in an all-numeric label');
  return name;
}

/**
 * Code points that UTS #46 maps away or to a dot, or that are invisible: a name in a path that
 * holds one is another spelling of some other name, and is refused rather than mapped.
 */
const PATH_NAME_IGNORABLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3002\u3164\ufe00-\ufe0f\ufeff\uff0e\uff61\uffa0]/u;

/**
 * A zone name as a URL path or an id names it, parsed strictly: no
 * surrounding or inner whitespace or control characters, at most one trailing dot, and a
 * non-ASCII name only in its one normal form (NFKC, nothing UTS #46 would map or drop, such as a
 * fullwidth digit, `ſ`, a soft hyphen or an ideographic full stop). Then normalized as
 * `normalizeZoneName` does. Throws RuleError.
 */
export function parseZonePathName(raw: string): string {
  return normalizeZoneName(strictPathName(raw));
}

/** The strict part of `parseZonePathName`: the name as given, one trailing dot dropped, not yet normalized. Throws RuleError. */
export function strictPathName(raw: string): string {
  if (raw.length > 4 * MAX_NAME_LENGTH) throw new RuleError(`must be at most ${MAX_NAME_LENGTH} characters`);
  if (/[\s\x00-\x1f\x7f-\x9f]/.test(raw)) throw new RuleError('must not contain spaces or control characters');
  const name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  if (name === '' || name.endsWith('.') || name.startsWith('.')) throw new RuleError('must not contain empty labels');
  if (!/^[\x00-\x7f]*$/.test(name)) {
    if (name.normalize('NFKC') !== name || PATH_NAME_IGNORABLE.test(name)) {
      throw new RuleError('must be written in its normal form (no fullwidth, compatibility or invisible characters)');
    }
  }
  return name;
}

/** Whether `name` equals `zone` or lies below it (both normalized). */
export function isInZone(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}

/**
 * A record name relative to `zone`: `@` or empty is the apex; a name ending in a dot is
 * absolute and must lie inside the zone; otherwise it is relative, as in a zone file.
 */
export function normalizeRecordName(input: string, zone: string): string {
  let name = input.trim();
  if (name === '' || name === APEX) return APEX;
  let absolute = false;
  if (name.endsWith('.')) {
    absolute = true;
    name = name.slice(0, -1);
  }
  name = toAscii(name);
  if (absolute) {
    if (!isInZone(name, zone)) throw new RuleError(`absolute name "${name}." is not inside the zone ${zone}`);
    if (name === zone) return APEX;
    name = name.slice(0, -(zone.length + 1));
  }
  checkLabels(name.split('.'), isReverse(zone) ? REVERSE_RECORD_LABEL : RECORD_LABEL, 'letters, digits, hyphens and underscores', true);
  if (name.length + 1 + zone.length > MAX_NAME_LENGTH) {
    throw new RuleError(`makes a full name longer than ${MAX_NAME_LENGTH} characters`);
  }
  return name;
}

/** The fully qualified name of a relative record name (no trailing dot). */
export function toFqdn(name: string, zone: string): string {
  return name === APEX ? zone : `${name}.${zone}`;
}

/**
 * A target host name in record data (CNAME, NS, PTR, MX, SRV): absolute, trailing
 * dot optional; `_` allowed, no wildcard. `allowRoot` admits "." (RFC 7505 null MX, RFC 2782).
 */
export function normalizeTargetName(input: string, allowRoot = false): string {
  let name = input.trim();
  if (name === '.') {
    if (allowRoot) return '.';
    throw new RuleError('must be a host name, not the root "."');
  }
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || name === APEX) throw new RuleError('must be a fully qualified host name, like host.example.com');
  name = toAscii(name);
  if (name.length > MAX_NAME_LENGTH) throw new RuleError(`must be at most ${MAX_NAME_LENGTH} characters`);
  checkLabels(name.split('.'), isReverse(name) ? REVERSE_RECORD_LABEL : RECORD_LABEL, 'letters, digits, hyphens and underscores', false);
  return name;
}
