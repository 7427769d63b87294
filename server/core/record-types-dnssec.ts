/**
 * The DNSSEC record types (RFC 4034, RFC 5155), which zonedeck serves only as a signed primary
 * made them: they come into a secondary zone by zone transfer and are never written by a user
 * (`transferOnly`); zonedeck signs its own primary zones itself (dns/dnssec/). Presentation as
 * dnssec-signzone prints it: base64 that may be split by spaces, signature times as
 * YYYYMMDDHHmmSS, "-" for no salt, base32hex next hashed owners.
 */
import { base64 } from './rdata/blob-fields';
import { coveredType, dnssecName, hashedName, salt, signatureTime, typeBitmap } from './rdata/dnssec-fields';
import { uint } from './rdata/fields';
import { DNSSEC_ALGORITHMS } from './rdata/iana-numbers';
import { defineType, type RecordType } from './rdata/record-codec';

const KEY = 'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
const SIG = 'oJB1W6WNGv+ldvQ3WDG0MQkg5IEhjRip8WTrPYGv07h108dUKGMeDPKijVCHX3DDKdfb+v6oB9wfuh3DTJXUAfI/M0zmO/zz8bW0Rznl8O3tGNazPwQKkRN20XPXV6nwwfoXmJQbsLNrLfkGJ5D6fwFm8nN+6pBzeDQfsS3Ap3o=';

const algorithm = uint(8, { name: 'algorithm', label: 'Algorithm', hint: '13 ECDSAP256SHA256, 8 RSASHA256, 15 ED25519', placeholder: '13' }, { names: DNSSEC_ALGORITHMS });
const nsec3Head = [
  uint(8, { name: 'hash', label: 'Hash algorithm', hint: '1 SHA-1 (RFC 5155 §4.1.1)', placeholder: '1' }),
  uint(8, { name: 'flags', label: 'Flags', hint: '1 opt-out (NSEC3); 0 for NSEC3PARAM', placeholder: '0' }),
  uint(16, { name: 'iterations', label: 'Iterations', hint: 'Extra hash iterations, 0 as RFC 9276 asks', placeholder: '0' }),
  salt({ name: 'salt', label: 'Salt', hint: 'Hex, or "-" for none', placeholder: '-' }),
];

export const TRANSFER_ONLY_TYPES: readonly RecordType[] = [
  defineType({
    type: 'DNSKEY',
    code: 48,
    description: 'Zone signing key (RFC 4034 §2), as the signed primary publishes it',
    example: `257 3 13 ${KEY}`,
    fields: [
      uint(16, { name: 'flags', label: 'Flags', hint: '256 zone key, 257 secure entry point', placeholder: '257' }),
      uint(8, { name: 'protocol', label: 'Protocol', hint: 'Always 3', placeholder: '3' }),
      algorithm,
      base64({ name: 'key', label: 'Public key', hint: 'Base64', placeholder: KEY }),
    ],
    transferOnly: true,
  }),
  defineType({
    type: 'RRSIG',
    code: 46,
    description: 'Signature over an RRset (RFC 4034 §3), as the signed primary made it',
    example: `A 13 2 300 20261228000000 20261128000000 12345 example.com ${SIG}`,
    form: 'type algorithm labels original-ttl expiration inception key-tag signer signature',
    fields: [
      coveredType({ name: 'covered', label: 'Type covered', hint: 'The type of the RRset signed', placeholder: 'A' }),
      algorithm,
      uint(8, { name: 'labels', label: 'Labels', hint: 'Labels of the owner name, a leading * not counted', placeholder: '2' }),
      uint(32, { name: 'ttl', label: 'Original TTL', what: 'original TTL', hint: 'The TTL of the RRset as signed', placeholder: '300' }),
      signatureTime({ name: 'expiration', label: 'Expiration', hint: 'YYYYMMDDHHmmSS (UTC)', placeholder: '20261228000000' }),
      signatureTime({ name: 'inception', label: 'Inception', hint: 'YYYYMMDDHHmmSS (UTC)', placeholder: '20261128000000' }),
      uint(16, { name: 'keytag', label: 'Key tag', hint: 'The signing DNSKEY’s tag', placeholder: '12345' }),
      dnssecName({ name: 'signer', label: 'Signer', hint: 'The zone’s apex', placeholder: 'example.com' }),
      base64({ name: 'signature', label: 'Signature', hint: 'Base64', placeholder: SIG }),
    ],
    transferOnly: true,
  }),
  defineType({
    type: 'NSEC',
    code: 47,
    description: 'Next owner name and the types here (RFC 4034 §4), as the signed primary chained them',
    example: 'www.example.com A RRSIG NSEC',
    form: 'next-name types…',
    fields: [
      dnssecName({ name: 'next', label: 'Next name', hint: 'The next owner name in canonical order', placeholder: 'www.example.com' }),
      typeBitmap({ name: 'types', label: 'Types', hint: 'The types at the owner name', placeholder: 'A RRSIG NSEC' }),
    ],
    transferOnly: true,
  }),
  defineType({
    type: 'NSEC3',
    code: 50,
    description: 'Hashed next owner name and the types here (RFC 5155 §3), as the signed primary chained them',
    example: '1 0 0 - 2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S A RRSIG',
    form: 'hash flags iterations salt next-hashed-owner types…',
    fields: [
      ...nsec3Head,
      hashedName({ name: 'next', label: 'Next hashed owner', hint: 'base32hex', placeholder: '2VPTU5TIMAMQTTGL4LUU9KG21E0AOR3S' }),
      typeBitmap({ name: 'types', label: 'Types', hint: 'The types at the original owner name', placeholder: 'A RRSIG' }),
    ],
    transferOnly: true,
  }),
  defineType({
    type: 'NSEC3PARAM',
    code: 51,
    description: 'The NSEC3 parameters of the zone (RFC 5155 §4)',
    example: '1 0 0 -',
    fields: nsec3Head,
    transferOnly: true,
  }),
];
