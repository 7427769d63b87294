/**
 * The one registry of record types. Each entry knows its fields (for the editor's form
 * and hints), how to validate and canonicalize `content` (zone-file presentation form,
 * RFC 1035 §5.1), and the rdata it puts on the wire (in dns-packet's data shape).
 * Adding a type is adding one entry here.
 */
import { normalizeTargetName } from './domain-name';
import { RuleError } from './errors';
import { canonicalIpv4, canonicalIpv6 } from './ip-range';

export interface RecordField {
  name: string;
  label: string;
  hint: string;
  placeholder: string;
}

export interface RecordType {
  type: string;
  /** RR type code (IANA DNS parameters). */
  code: number;
  description: string;
  example: string;
  fields: RecordField[];
  /** Validates content and returns its canonical form; throws RuleError. */
  normalize(content: string): string;
  /** Field values of canonical content, for the editor. */
  split(content: string): string[];
  /** Content from field values, before normalization. */
  join(values: string[]): string;
  /** rdata in dns-packet's `data` shape. */
  wireData(content: string): unknown;
  /** The host name this record points at, for CNAME chasing and additional data. */
  target?(content: string): string | null;
  /** False where the type may not stand at the zone apex (RFC 1034 §3.6.2 for CNAME). */
  allowedAtApex: boolean;
}

const MAX_TXT_OCTETS = 4000;
const encoder = new TextEncoder();

function uint(text: string | undefined, max: number, what: string): number {
  if (text === undefined || !/^[0-9]{1,5}$/.test(text) || Number(text) > max) {
    throw new RuleError(`${what} must be a whole number from 0 to ${max}`);
  }
  return Number(text);
}

function parts(content: string, count: number, shape: string): string[] {
  const p = content.trim().split(/\s+/);
  if (p.length !== count || p[0] === '') throw new RuleError(`must have the form "${shape}"`);
  return p;
}

const spaceSplit = (content: string) => content.split(' ');
const spaceJoin = (values: string[]) => values.map((v) => v.trim()).join(' ');

const ipv4 = (content: string) => canonicalIpv4(content.trim());
const ipv6 = (content: string) => canonicalIpv6(content.trim());

function hostType(type: string, code: number, description: string, example: string, hint: string, allowedAtApex: boolean): RecordType {
  return {
    type,
    code,
    description,
    example,
    fields: [{ name: 'target', label: 'Target', hint, placeholder: example }],
    normalize: (c) => normalizeTargetName(c),
    split: (c) => [c],
    join: ([v]) => v ?? '',
    wireData: (c) => c,
    target: (c) => c,
    allowedAtApex,
  };
}

/** Splits text into character-strings of at most 255 octets (RFC 1035 §3.3.14). */
export function txtChunks(text: string): Uint8Array[] {
  const bytes = encoder.encode(text);
  if (bytes.length === 0) return [new Uint8Array(0)];
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 255) chunks.push(bytes.subarray(i, i + 255));
  return chunks;
}

function caaValue(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('"')) {
    if (v.length < 2 || !v.endsWith('"')) throw new RuleError('value must be one quoted string, like "letsencrypt.org"');
    const inner = v.slice(1, -1);
    if (/(^|[^\\])"/.test(inner)) throw new RuleError('value must be one quoted string; escape inner quotes as \\"');
    return inner.replace(/\\(["\\])/g, '$1');
  }
  if (/\s/.test(v)) throw new RuleError('value with spaces must be quoted');
  return v;
}

const quote = (v: string) => `"${v.replace(/["\\]/g, (m) => `\\${m}`)}"`;

export const RECORD_TYPES: readonly RecordType[] = [
  {
    type: 'A',
    code: 1,
    description: 'IPv4 address',
    example: '192.0.2.1',
    fields: [{ name: 'address', label: 'IPv4 address', hint: 'Dotted quad, e.g. 192.0.2.1', placeholder: '192.0.2.1' }],
    normalize: ipv4,
    split: (c) => [c],
    join: ([v]) => v ?? '',
    wireData: (c) => c,
    allowedAtApex: true,
  },
  {
    type: 'AAAA',
    code: 28,
    description: 'IPv6 address',
    example: '2001:db8::1',
    fields: [{ name: 'address', label: 'IPv6 address', hint: 'Stored in canonical compressed form (RFC 5952)', placeholder: '2001:db8::1' }],
    normalize: ipv6,
    split: (c) => [c],
    join: ([v]) => v ?? '',
    wireData: (c) => c,
    allowedAtApex: true,
  },
  hostType('CNAME', 5, 'Alias to another name', 'target.example.com', 'Fully qualified name; nothing else may exist at this name', false),
  {
    type: 'MX',
    code: 15,
    description: 'Mail exchanger',
    example: '10 mail.example.com',
    fields: [
      { name: 'preference', label: 'Preference', hint: '0–65535, lower is tried first', placeholder: '10' },
      { name: 'exchange', label: 'Mail server', hint: 'Host name, or "." with preference 0 for "no mail" (RFC 7505)', placeholder: 'mail.example.com' },
    ],
    normalize(c) {
      const [pref, host] = parts(c, 2, 'preference host, e.g. 10 mail.example.com');
      const preference = uint(pref, 65535, 'preference');
      const exchange = normalizeTargetName(host!, true);
      if (exchange === '.' && preference !== 0) throw new RuleError('a null MX (".") must have preference 0 (RFC 7505)');
      return `${preference} ${exchange}`;
    },
    split: spaceSplit,
    join: spaceJoin,
    wireData(c) {
      const [p, exchange] = c.split(' ');
      return { preference: Number(p), exchange: exchange === '.' ? '' : exchange };
    },
    target: (c) => {
      const host = c.split(' ')[1]!;
      return host === '.' ? null : host;
    },
    allowedAtApex: true,
  },
  {
    type: 'TXT',
    code: 16,
    description: 'Text',
    example: 'v=spf1 -all',
    fields: [{ name: 'text', label: 'Text', hint: `The text itself, without quotes; up to ${MAX_TXT_OCTETS} octets, split into 255-octet strings on the wire`, placeholder: 'v=spf1 -all' }],
    normalize(c) {
      if (encoder.encode(c).length > MAX_TXT_OCTETS) throw new RuleError(`must be at most ${MAX_TXT_OCTETS} octets`);
      return c;
    },
    split: (c) => [c],
    join: ([v]) => v ?? '',
    wireData: txtChunks,
    allowedAtApex: true,
  },
  hostType('NS', 2, 'Delegation to name servers', 'ns1.example.net', 'Name server host name; below the apex this delegates the name', false),
  {
    type: 'SRV',
    code: 33,
    description: 'Service locator',
    example: '10 5 443 sip.example.com',
    fields: [
      { name: 'priority', label: 'Priority', hint: '0–65535, lower is tried first', placeholder: '10' },
      { name: 'weight', label: 'Weight', hint: '0–65535, share among equal priorities', placeholder: '5' },
      { name: 'port', label: 'Port', hint: '0–65535', placeholder: '443' },
      { name: 'target', label: 'Target', hint: 'Host name, or "." when the service is not offered', placeholder: 'sip.example.com' },
    ],
    normalize(c) {
      const [pr, w, po, t] = parts(c, 4, 'priority weight port target, e.g. 10 5 443 sip.example.com');
      return `${uint(pr, 65535, 'priority')} ${uint(w, 65535, 'weight')} ${uint(po, 65535, 'port')} ${normalizeTargetName(t!, true)}`;
    },
    split: spaceSplit,
    join: spaceJoin,
    wireData(c) {
      const [priority, weight, port, target] = c.split(' ');
      return { priority: Number(priority), weight: Number(weight), port: Number(port), target: target === '.' ? '' : target };
    },
    target: (c) => {
      const host = c.split(' ')[3]!;
      return host === '.' ? null : host;
    },
    allowedAtApex: true,
  },
  {
    type: 'CAA',
    code: 257,
    description: 'Certification authority authorization',
    example: '0 issue "letsencrypt.org"',
    fields: [
      { name: 'flags', label: 'Flags', hint: '0, or 128 for issuer-critical', placeholder: '0' },
      { name: 'tag', label: 'Tag', hint: 'issue, issuewild, iodef (RFC 8659)', placeholder: 'issue' },
      { name: 'value', label: 'Value', hint: 'e.g. letsencrypt.org, or mailto:security@example.com for iodef', placeholder: 'letsencrypt.org' },
    ],
    normalize(c) {
      const m = /^\s*(\S+)\s+(\S+)\s+(.*?)\s*$/.exec(c);
      if (!m) throw new RuleError('must have the form flags tag "value", e.g. 0 issue "letsencrypt.org"');
      const flags = uint(m[1], 255, 'flags');
      const tag = m[2]!.toLowerCase();
      if (!/^[a-z0-9]{1,15}$/.test(tag)) throw new RuleError('tag must be 1–15 letters or digits (RFC 8659 §4.1)');
      const value = caaValue(m[3]!);
      if (value.length > 255) throw new RuleError('value must be at most 255 characters');
      return `${flags} ${tag} ${quote(value)}`;
    },
    split(c) {
      const m = /^(\S+) (\S+) (.*)$/.exec(c);
      return m ? [m[1]!, m[2]!, caaValue(m[3]!)] : [c, '', ''];
    },
    join: ([f, t, v]) => `${(f ?? '').trim()} ${(t ?? '').trim()} ${quote(v ?? '')}`,
    wireData(c) {
      const [flags, tag, value] = RECORD_TYPE_BY_NAME.get('CAA')!.split(c);
      return { flags: Number(flags), tag, value, issuerCritical: (Number(flags) & 128) !== 0 };
    },
    allowedAtApex: true,
  },
  hostType('PTR', 12, 'Pointer (reverse DNS)', 'host.example.com', 'The host name this address belongs to', true),
];

export const RECORD_TYPE_BY_NAME: ReadonlyMap<string, RecordType> = new Map(RECORD_TYPES.map((t) => [t.type, t]));

/** The registry entry for a type name (case-insensitive); throws RuleError for an unknown one. */
export function recordType(name: string): RecordType {
  const t = RECORD_TYPE_BY_NAME.get(name.trim().toUpperCase());
  if (!t) throw new RuleError(`must be one of ${RECORD_TYPES.map((r) => r.type).join(', ')}`);
  return t;
}
