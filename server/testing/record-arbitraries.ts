/**
 * fast-check generators of record content for every type of the registry, written as a user
 * or another server would write it (not necessarily canonical), for the property tests of
 * the registry and of the master-file parser and printer.
 */
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { base64Text, hexText } from '../core/rdata/blob-fields';
import { quoteOctets } from '../core/rdata/presentation';
import { txtText } from '../core/rdata/txt';
import { RECORD_TYPES } from '../core/record-types';

const u8 = fc.integer({ min: 0, max: 255 });
const u16 = fc.integer({ min: 0, max: 65535 });
const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });

const ldhLabel = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,12}[a-z0-9])?$/);
const label = fc.oneof({ weight: 4, arbitrary: ldhLabel }, { weight: 1, arbitrary: ldhLabel.map((l) => `_${l}`) });

/** An absolute host name, sometimes with a trailing dot or upper case (both normalized away). */
export const hostName = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('example.com', 'example.net', 'xn--mnchen-3ya.de'), fc.boolean(), fc.boolean())
  .map(([labels, zone, dot, upper]) => {
    const n = `${labels.join('.')}.${zone}${dot ? '.' : ''}`;
    return upper ? n.toUpperCase() : n;
  });
const hostOrRoot = fc.oneof({ weight: 5, arbitrary: hostName }, { weight: 1, arbitrary: fc.constant('.') });

const octetString = (max: number) =>
  fc.oneof(
    bytes(0, max),
    fc.string({ maxLength: Math.floor(max / 4) }).map((s) => new TextEncoder().encode(s)),
    fc.string({ unit: 'binary', maxLength: Math.floor(max / 4) }).map((s) => new TextEncoder().encode(s)),
  );
const quoted = (max: number) => octetString(max).map((b) => quoteOctets(b));

const hexOf = (n: number) => fc.tuple(bytes(n, n), fc.boolean()).map(([b, lower]) => (lower ? hexText(b).toLowerCase() : hexText(b)));
const digest = (table: Record<number, number>, maxOther: number) =>
  fc.oneof(
    ...Object.entries(table).map(([t, n]) => hexOf(n).map((h) => [Number(t), h] as const)),
    fc
      .tuple(
        u8.filter((t) => !(t in table)),
        fc.integer({ min: 1, max: maxOther }),
      )
      .chain(([t, n]) => hexOf(n).map((h) => [t, h] as const)),
  );

const ipv4 = fc.ipV4();
const ipv6 = bytes(16, 16).map((b) => ipaddr.fromByteArray(Array.from(b)).toString());

const alpnId = fc.stringMatching(/^[a-z0-9.-]{1,8}$/);
const svcParams = fc
  .record(
    {
      alpn: fc.array(alpnId, { minLength: 1, maxLength: 3 }),
      ndalpn: fc.boolean(),
      port: u16,
      ipv4hint: fc.array(ipv4, { minLength: 1, maxLength: 3 }),
      ech: bytes(1, 40).map(base64Text),
      ipv6hint: fc.array(ipv6, { minLength: 1, maxLength: 2 }),
      dohpath: fc.constantFrom('/dns-query{?dns}', '/q{?dns}'),
      ohttp: fc.constant(true),
      generic: fc.tuple(fc.integer({ min: 9, max: 65534 }), octetString(20)),
      mandatory: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .map((p) => {
    const parts: string[] = [];
    if (p.alpn) parts.push(`alpn=${p.alpn.join(',')}`);
    if (p.alpn && p.ndalpn) parts.push('no-default-alpn');
    if (p.port !== undefined) parts.push(`port=${p.port}`);
    if (p.ipv4hint) parts.push(`ipv4hint=${p.ipv4hint.join(',')}`);
    if (p.ech) parts.push(`ech=${p.ech}`);
    if (p.ipv6hint) parts.push(`ipv6hint=${p.ipv6hint.join(',')}`);
    if (p.dohpath) parts.push(`dohpath=${p.dohpath}`);
    if (p.ohttp) parts.push('ohttp');
    if (p.generic) parts.push(p.generic[1].length ? `key${p.generic[0]}=${quoteOctets(p.generic[1])}` : `key${p.generic[0]}`);
    const keys = parts.map((x) => x.split('=')[0]!);
    if (p.mandatory && keys.length > 0) parts.push(`mandatory=${keys.slice(0, 2).join(',')}`);
    return fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length });
  })
  .chain((x) => x)
  .map((parts) => parts.join(' '));

const svcb = fc.oneof(
  hostOrRoot.map((t) => `0 ${t}`),
  fc.tuple(fc.integer({ min: 1, max: 65535 }), hostOrRoot, svcParams).map(([p, t, params]) => `${p} ${t} ${params}`.trim()),
);

const metres = (cm: number) => `${Math.trunc(cm / 100)}.${String(Math.abs(cm) % 100).padStart(2, '0')}m`;
const sizeText = fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 9 })).map(([m, e]) => metres(m * 10 ** e));
const angle = (maxDeg: number, hemis: string) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxDeg - 1 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999 }), fc.constantFrom(...hemis))
    .map(([d, m, s, f, h]) => `${d} ${m} ${s}.${String(f).padStart(3, '0')} ${h}`);
const loc = fc
  .tuple(angle(90, 'NS'), angle(180, 'EW'), fc.integer({ min: -10_000_000, max: 4_284_967_295 }), fc.array(sizeText, { maxLength: 3 }))
  .map(([lat, lon, alt, sizes]) => [lat, lon, alt < 0 ? `-${metres(-alt)}` : metres(alt), ...sizes].join(' '));

/** Content for each type, as users and other servers write it. */
export const CONTENT: Record<string, fc.Arbitrary<string>> = {
  A: ipv4,
  AAAA: ipv6,
  CNAME: hostName,
  NS: hostName,
  PTR: hostName,
  DNAME: hostName,
  MX: fc.oneof(
    fc.tuple(u16, hostName).map(([p, h]) => `${p} ${h}`),
    fc.constant('0 .'),
  ),
  TXT: octetString(1000).map(txtText),
  SRV: fc.tuple(u16, u16, u16, hostOrRoot).map((x) => x.join(' ')),
  CAA: fc.tuple(u8, fc.stringMatching(/^[a-z0-9]{1,15}$/), octetString(200)).map(([f, t, v]) => `${f} ${t} ${quoteOctets(v)}`),
  DS: fc.tuple(u16, u8, digest({ 1: 20, 2: 32, 3: 32, 4: 48 }, 64)).map(([k, a, [t, h]]) => `${k} ${a} ${t} ${h}`),
  TLSA: fc.tuple(u8, u8, digest({ 1: 32, 2: 64 }, 100)).map(([u, s, [m, h]]) => `${u} ${s} ${m} ${h}`),
  SMIMEA: fc.tuple(u8, u8, digest({ 1: 32, 2: 64 }, 100)).map(([u, s, [m, h]]) => `${u} ${s} ${m} ${h}`),
  SSHFP: fc.tuple(u8, digest({ 1: 20, 2: 32 }, 64)).map(([a, [t, h]]) => `${a} ${t} ${h}`),
  SVCB: svcb,
  HTTPS: svcb,
  NAPTR: fc.tuple(u16, u16, fc.stringMatching(/^[A-Za-z0-9]{0,2}$/), quoted(40), quoted(60), hostOrRoot).map(([o, p, f, s, r, h]) => `${o} ${p} "${f}" ${s} ${r} ${h}`),
  URI: fc
    .tuple(
      u16,
      u16,
      octetString(200).filter((b) => b.length > 0),
    )
    .map(([p, w, t]) => `${p} ${w} ${quoteOctets(t)}`),
  LOC: loc,
  HINFO: fc.tuple(quoted(60), quoted(60)).map(([c, o]) => `${c} ${o}`),
  CERT: fc.tuple(fc.oneof(u16.map(String), fc.constantFrom('PKIX', 'PGP', 'URI')), u16, u8, bytes(1, 80)).map(([t, k, a, b]) => `${t} ${k} ${a} ${base64Text(b)}`),
  OPENPGPKEY: bytes(1, 120).map(base64Text),
};

for (const t of RECORD_TYPES) if (!CONTENT[t.type]) throw new Error(`record-arbitraries: no generator for ${t.type}`);

/** A record of any type: [type, content as written]. */
export const anyRecord = fc.constantFrom(...RECORD_TYPES.map((t) => t.type)).chain((type) => CONTENT[type]!.map((content) => [type, content] as const));
