/**
 * The one registry of record types. Each entry is a list of typed rdata
 * fields (rdata/*-fields.ts, svcb.ts, loc.ts, txt.ts) from which follow: validation and canonical `content` (the form
 * dig prints, names absolute without the trailing dot), the master-file text, the wire form
 * both ways, and the editor's fields and hints. Adding a type is adding one entry here.
 */
import { RuleError } from './errors';
import { base64, hex } from './rdata/blob-fields';
import { ipv4, ipv6, name, uint } from './rdata/fields';
import { CERT_TYPES, DNSSEC_ALGORITHMS, DS_DIGESTS, digestLength, SSHFP_DIGESTS, TLSA_DIGESTS } from './rdata/iana-numbers';
import { locField } from './rdata/loc';
import { defineType, type RecordType } from './rdata/record-codec';
import { TRANSFER_ONLY_TYPES } from './record-types-dnssec';
import { caaTag, charString, restString } from './rdata/string-fields';
import { noParams, svcParams, type SvcParams } from './rdata/svcb';
import { readTxtContent, splitStrings, txtField, txtStrings } from './rdata/txt';

export type { RecordType } from './rdata/record-codec';
export type { EditorField as RecordField } from './rdata/field';
export { MAX_TXT_OCTETS } from './rdata/txt';

const H64 = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';

/** Splits stored MX/SRV content without parsing it again (the zone loader calls this per record). */
const words = (c: string) => c.split(' ');
const root = (host: string) => (host === '.' ? '' : host);

function hostType(type: string, code: number, description: string, example: string, hint: string, allowedAtApex: boolean, apexRule?: string): RecordType {
  return defineType({
    type,
    code,
    description,
    example,
    allowedAtApex,
    apexRule,
    fields: [name({ name: 'target', label: 'Target', hint, placeholder: example })],
    wireData: (c) => c,
    target: ([t]) => t,
  });
}

function tlsaLike(type: string, code: number, description: string, example: string, hint: string): RecordType {
  return defineType({
    type,
    code,
    description,
    example,
    fields: [
      uint(8, { name: 'usage', label: 'Certificate usage', hint: '0 PKIX-TA, 1 PKIX-EE, 2 DANE-TA, 3 DANE-EE (RFC 7218)', placeholder: '3' }),
      uint(8, { name: 'selector', label: 'Selector', hint: '0 full certificate, 1 public key only', placeholder: '1' }),
      uint(8, { name: 'matching', label: 'Matching type', hint: '0 exact, 1 SHA-256, 2 SHA-512', placeholder: '1' }),
      hex({ name: 'data', label: 'Certificate association data', hint, placeholder: H64 }),
    ],
    check: ([, , matching, data]) => digestLength(TLSA_DIGESTS, 'certificate association data', 'matching type', matching, data),
  });
}

function svcbLike(type: string, code: number, description: string, example: string): RecordType {
  return defineType({
    type,
    code,
    description,
    example,
    fields: [
      uint(16, { name: 'priority', label: 'Priority', hint: '0 for AliasMode, 1–65535 for ServiceMode (lower is preferred)', placeholder: '1' }),
      name({ name: 'target', label: 'Target', hint: '"." for the owner name itself, or a host name', placeholder: '.' }, { allowRoot: true }),
      svcParams({ name: 'params', label: 'Parameters', hint: 'key=value pairs: alpn="h2,h3" port=443 ipv4hint=… ipv6hint=… ech=… (RFC 9460)', placeholder: 'alpn="h2,h3"' }),
    ],
    check([priority, , params]: [number, string, SvcParams]) {
      if (priority === 0 && !noParams(params)) throw new RuleError('an AliasMode record (priority 0) takes no parameters (RFC 9460 §2.4.2)');
    },
  });
}

/** The DNS types of the registry, each served on the wire as itself. */
export const RECORD_TYPES: readonly RecordType[] = [
  defineType({
    type: 'A',
    code: 1,
    description: 'IPv4 address',
    example: '192.0.2.1',
    fields: [ipv4({ name: 'address', label: 'IPv4 address', what: '', hint: 'Dotted quad, e.g. 192.0.2.1', placeholder: '192.0.2.1' })],
    wireData: (c) => c,
  }),
  defineType({
    type: 'AAAA',
    code: 28,
    description: 'IPv6 address',
    example: '2001:db8::1',
    fields: [ipv6({ name: 'address', label: 'IPv6 address', what: '', hint: 'Stored in canonical compressed form (RFC 5952)', placeholder: '2001:db8::1' })],
    wireData: (c) => c,
  }),
  hostType(
    'CNAME',
    5,
    'Alias to another name',
    'target.example.com',
    'Fully qualified name; nothing else may exist at this name',
    false,
    'a CNAME record cannot stand at the zone apex (RFC 1034 §3.6.2)',
  ),
  defineType({
    type: 'MX',
    code: 15,
    description: 'Mail exchanger',
    example: '10 mail.example.com',
    form: 'preference host',
    fields: [
      uint(16, { name: 'preference', label: 'Preference', hint: '0–65535, lower is tried first', placeholder: '10' }),
      name({ name: 'exchange', label: 'Mail server', hint: 'Host name, or "." with preference 0 for "no mail" (RFC 7505)', placeholder: 'mail.example.com' }, { allowRoot: true }),
    ],
    check([preference, exchange]) {
      if (exchange === '.' && preference !== 0) throw new RuleError('a null MX (".") must have preference 0 (RFC 7505)');
    },
    wireData(c) {
      const [p, exchange] = words(c);
      return { preference: Number(p), exchange: root(exchange!) };
    },
    target: ([, host]) => (host === '.' ? null : host),
  }),
  defineType({
    type: 'TXT',
    code: 16,
    description: 'Text',
    example: 'v=spf1 -all',
    fields: [txtField],
    readContent: (c) => [readTxtContent(c)],
    wireData: txtChunks,
  }),
  hostType('NS', 2, 'Delegation to name servers', 'ns1.example.net', 'Name server host name; below the apex this delegates the name', false, 'the NS set at the apex is managed by zonedeck'),
  defineType({
    type: 'SRV',
    code: 33,
    description: 'Service locator',
    example: '10 5 443 sip.example.com',
    fields: [
      uint(16, { name: 'priority', label: 'Priority', hint: '0–65535, lower is tried first', placeholder: '10' }),
      uint(16, { name: 'weight', label: 'Weight', hint: '0–65535, share among equal priorities', placeholder: '5' }),
      uint(16, { name: 'port', label: 'Port', hint: '0–65535', placeholder: '443' }),
      name({ name: 'target', label: 'Target', hint: 'Host name, or "." when the service is not offered', placeholder: 'sip.example.com' }, { allowRoot: true }),
    ],
    wireData(c) {
      const [priority, weight, port, target] = words(c);
      return { priority: Number(priority), weight: Number(weight), port: Number(port), target: root(target!) };
    },
    target: ([, , , host]) => (host === '.' ? null : host),
  }),
  defineType({
    type: 'CAA',
    code: 257,
    description: 'Certification authority authorization',
    example: '0 issue "letsencrypt.org"',
    form: 'flags tag "value"',
    fields: [
      uint(8, { name: 'flags', label: 'Flags', hint: '0, or 128 for issuer-critical', placeholder: '0' }),
      caaTag({ name: 'tag', label: 'Tag', hint: 'issue, issuewild, iodef (RFC 8659)', placeholder: 'issue' }),
      restString({ name: 'value', label: 'Value', hint: 'e.g. letsencrypt.org, or mailto:security@example.com for iodef', placeholder: 'letsencrypt.org' }, { max: 255 }),
    ],
  }),
  hostType('PTR', 12, 'Pointer (reverse DNS)', 'host.example.com', 'The host name this address belongs to', true),
  defineType({
    type: 'DS',
    code: 43,
    description: 'Delegation signer (the child zone’s key, at a delegation)',
    example: `12345 13 2 ${H64}`,
    allowedAtApex: false,
    apexRule: 'a DS record belongs in the parent zone, at the delegation (RFC 4035 §2.4)',
    fields: [
      uint(16, { name: 'keytag', label: 'Key tag', hint: 'The key tag of the child’s DNSKEY', placeholder: '12345' }),
      uint(8, { name: 'algorithm', label: 'Algorithm', hint: '13 ECDSAP256SHA256, 8 RSASHA256, 15 ED25519', placeholder: '13' }, { names: DNSSEC_ALGORITHMS }),
      uint(8, { name: 'digesttype', label: 'Digest type', hint: '2 SHA-256, 4 SHA-384', placeholder: '2' }),
      hex({ name: 'digest', label: 'Digest', hint: 'Hex, as the child’s DNSSEC settings show it', placeholder: H64 }),
    ],
    check: ([, , type, digest]) => digestLength(DS_DIGESTS, 'digest', 'digest type', type, digest),
  }),
  tlsaLike('TLSA', 52, 'TLS certificate association (DANE)', `3 1 1 ${H64}`, 'Hex: the certificate, its public key, or their SHA-256/512 digest'),
  defineType({
    type: 'SSHFP',
    code: 44,
    description: 'SSH host key fingerprint',
    example: `4 2 ${H64}`,
    fields: [
      uint(8, { name: 'algorithm', label: 'Algorithm', hint: '1 RSA, 3 ECDSA, 4 Ed25519 (RFC 4255, 6594, 7479)', placeholder: '4' }),
      uint(8, { name: 'fptype', label: 'Fingerprint type', hint: '1 SHA-1, 2 SHA-256', placeholder: '2' }),
      hex({ name: 'fingerprint', label: 'Fingerprint', hint: 'Hex, as ssh-keygen -r prints it', placeholder: H64 }),
    ],
    check: ([, type, fp]) => digestLength(SSHFP_DIGESTS, 'fingerprint', 'fingerprint type', type, fp),
  }),
  svcbLike('SVCB', 64, 'Service binding (RFC 9460)', '1 svc.example.com alpn="h2,h3" port=8443'),
  svcbLike('HTTPS', 65, 'HTTPS service binding (RFC 9460)', '1 . alpn="h2,h3" ipv4hint=192.0.2.1'),
  defineType({
    type: 'NAPTR',
    code: 35,
    description: 'Naming authority pointer (SIP, ENUM)',
    example: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com',
    fields: [
      uint(16, { name: 'order', label: 'Order', hint: '0–65535, lower is processed first', placeholder: '100' }),
      uint(16, { name: 'preference', label: 'Preference', hint: '0–65535, among equal orders', placeholder: '10' }),
      charString({ name: 'flags', label: 'Flags', hint: 'S, A, U or P (RFC 3403 §4.1), or empty', placeholder: 'S' }),
      charString({ name: 'services', label: 'Services', hint: 'e.g. SIP+D2U or E2U+sip', placeholder: 'SIP+D2U' }),
      charString({ name: 'regexp', label: 'Regular expression', hint: 'Substitution, e.g. !^.*$!sip:info@example.com!, or empty', placeholder: '' }),
      name({ name: 'replacement', label: 'Replacement', hint: 'Next name to look up, or "." when the regexp is used', placeholder: '_sip._udp.example.com' }, { allowRoot: true }),
    ],
    check([, , flags]: [number, number, Uint8Array]) {
      if (!flags.every((c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) {
        throw new RuleError('flags must be letters or digits (RFC 3403 §4.1)');
      }
    },
  }),
  defineType({
    type: 'URI',
    code: 256,
    description: 'URI for a service (RFC 7553)',
    example: '10 1 "https://www.example.com/"',
    fields: [
      uint(16, { name: 'priority', label: 'Priority', hint: '0–65535, lower is tried first', placeholder: '10' }),
      uint(16, { name: 'weight', label: 'Weight', hint: '0–65535, share among equal priorities', placeholder: '1' }),
      restString({ name: 'target', label: 'Target URI', hint: 'The URI, e.g. https://www.example.com/', placeholder: 'https://www.example.com/' }, { nonEmpty: true }),
    ],
  }),
  defineType({
    type: 'LOC',
    code: 29,
    description: 'Geographic location (RFC 1876)',
    example: '52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m',
    form: 'd [m [s]] N|S d [m [s]] E|W altitude [size [hp [vp]]]',
    fields: [
      locField({
        name: 'location',
        label: 'Location',
        hint: 'd m s N|S d m s E|W altitude [size [horizontal [vertical precision]]], e.g. 52 22 23 N 4 53 32 E -2m',
        placeholder: '52 22 23.000 N 4 53 32.000 E -2.00m',
      }),
    ],
  }),
  defineType({
    type: 'HINFO',
    code: 13,
    description: 'Host information (RFC 8482 answers to ANY use it too)',
    example: '"x86-64" "Linux"',
    fields: [
      charString({ name: 'cpu', label: 'CPU', what: 'CPU', hint: 'Hardware, e.g. x86-64', placeholder: 'x86-64' }),
      charString({ name: 'os', label: 'OS', what: 'OS', hint: 'Operating system, e.g. Linux', placeholder: 'Linux' }),
    ],
  }),
  defineType({
    type: 'CERT',
    code: 37,
    description: 'Certificate or CRL (RFC 4398)',
    example: 'PGP 0 0 mQENBFit2jsBCADrbl5vjVxYeAE0g0IDYCBpHirv1Sjlqxx5gjtPhb2YhvyDMXjq',
    fields: [
      uint(
        16,
        { name: 'certtype', label: 'Certificate type', hint: 'PKIX, SPKI, PGP, IPKIX, ISPKI, IPGP, ACPKIX, IACPKIX, URI, OID or a number', placeholder: 'PKIX' },
        { names: CERT_TYPES, print: true },
      ),
      uint(16, { name: 'keytag', label: 'Key tag', hint: '0–65535; 0 when no DNSSEC key is meant', placeholder: '0' }),
      uint(8, { name: 'algorithm', label: 'Algorithm', hint: 'DNSSEC algorithm, 0 when none', placeholder: '0' }, { names: DNSSEC_ALGORITHMS, print: true }),
      base64({ name: 'certificate', label: 'Certificate', hint: 'Base64', placeholder: 'MIIB…' }),
    ],
  }),
  defineType({
    type: 'OPENPGPKEY',
    code: 61,
    description: 'OpenPGP public key (RFC 7929)',
    example: 'mQENBFit2jsBCADrbl5vjVxYeAE0g0IDYCBpHirv1Sjlqxx5gjtPhb2YhvyDMXjq',
    fields: [base64({ name: 'key', label: 'Public key', hint: 'The key in base64 (gpg --export | base64)', placeholder: 'mQENBF…' })],
  }),
  tlsaLike('SMIMEA', 53, 'S/MIME certificate association (RFC 8162)', `3 1 1 ${H64}`, 'Hex: the certificate, its public key, or their SHA-256/512 digest'),
  defineType({
    type: 'DNAME',
    code: 39,
    description: 'Alias for a whole subtree (RFC 6672)',
    example: 'example.net',
    fields: [name({ name: 'target', label: 'Target', hint: 'Every name below this one is redirected below the target', placeholder: 'example.net' })],
    target: ([t]) => t,
  }),
];

/**
 * ALIAS (CNAME flattening): not a DNS type but an instruction to the server, which
 * answers A and AAAA queries at the ALIAS's name with the target's current addresses (dns/alias.ts).
 * At the apex it does what a CNAME cannot; below it, it is what PowerDNS clients write there. Its code is PowerDNS's (65401, private use, RFC 6895 §3.1), so zone files
 * written as RFC 3597 generic records and PowerDNS's own transfers carry it both ways.
 */
export const ALIAS_TYPE: RecordType = defineType({
  type: 'ALIAS',
  code: 65401,
  description: 'Address alias (CNAME flattening): the name answers the target’s addresses',
  example: 'lb.example.net',
  fields: [
    name({ name: 'target', label: 'Target', hint: 'A and AAAA queries at this name get the target’s current addresses; allowed at the apex (@), where a CNAME is not', placeholder: 'lb.example.net' }),
  ],
  wireData: (c) => c,
  synthetic: true,
});

/** Every type a user writes: the DNS types above and ALIAS. */
export const WRITABLE_TYPES: readonly RecordType[] = [...RECORD_TYPES, ALIAS_TYPE];

export { TRANSFER_ONLY_TYPES } from './record-types-dnssec';

/** Every type the zone index stores: what users write, and the DNSSEC records a signed primary transfers. */
const STORED_TYPES: readonly RecordType[] = [...WRITABLE_TYPES, ...TRANSFER_ONLY_TYPES];

export const RECORD_TYPE_BY_NAME: ReadonlyMap<string, RecordType> = new Map(STORED_TYPES.map((t) => [t.type, t]));
export const RECORD_TYPE_BY_CODE: ReadonlyMap<number, RecordType> = new Map(STORED_TYPES.map((t) => [t.code, t]));

/**
 * Why a type may not be written by a user, or null: the DNSSEC types of a signed primary come
 * only by zone transfer. The one judgement every write path reaches (the zone draft's rules).
 */
export function transferOnlyRefusal(type: string): string | null {
  const def = RECORD_TYPE_BY_NAME.get(type);
  return def?.transferOnly ? `${def.type} records come only from a signed primary by zone transfer; zonedeck signs its own zones itself (dnssec_enabled)` : null;
}

/** The registry entry for a type name (case-insensitive); throws RuleError for an unknown one. */
export function recordType(name: string): RecordType {
  const t = RECORD_TYPE_BY_NAME.get(name.trim().toUpperCase());
  if (!t) throw new RuleError(`must be one of ${WRITABLE_TYPES.map((r) => r.type).join(', ')}`);
  return t;
}

/**
 * TXT content as its character-strings: the quoted form's strings as written,
 * plain text split on octet boundaries at 255. Stored content that predates the escape rule
 * and does not read is sent as its UTF-8 octets rather than dropping the zone.
 */
export function txtChunks(content: string): Uint8Array[] {
  try {
    return txtStrings(content);
  } catch {
    return splitStrings(new TextEncoder().encode(content));
  }
}
