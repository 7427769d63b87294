/** Numbers of the IANA DNS registries that record types print by name or check lengths by. */
import { RuleError } from '../errors';

/** DNSSEC algorithm mnemonics as BIND prints them (IANA DNS Security Algorithm Numbers). */
export const DNSSEC_ALGORITHMS: Record<number, string> = {
  1: 'RSAMD5',
  2: 'DH',
  3: 'DSA',
  5: 'RSASHA1',
  6: 'NSEC3DSA',
  7: 'NSEC3RSASHA1',
  8: 'RSASHA256',
  10: 'RSASHA512',
  12: 'ECCGOST',
  13: 'ECDSAP256SHA256',
  14: 'ECDSAP384SHA384',
  15: 'ED25519',
  16: 'ED448',
  252: 'INDIRECT',
  253: 'PRIVATEDNS',
  254: 'PRIVATEOID',
};

/** Certificate types (RFC 4398 §2.1). */
export const CERT_TYPES: Record<number, string> = { 1: 'PKIX', 2: 'SPKI', 3: 'PGP', 4: 'IPKIX', 5: 'ISPKI', 6: 'IPGP', 7: 'ACPKIX', 8: 'IACPKIX', 253: 'URI', 254: 'OID' };

/** Digest lengths by digest type: DS (RFC 4034 §5.1.4, RFC 4509, RFC 5933, RFC 6605), SSHFP (RFC 4255, RFC 6594), TLSA/SMIMEA (RFC 6698 §2.1.3). */
export const DS_DIGESTS: Record<number, [number, string]> = { 1: [20, 'SHA-1'], 2: [32, 'SHA-256'], 3: [32, 'GOST R 34.11-94'], 4: [48, 'SHA-384'] };
export const SSHFP_DIGESTS: Record<number, [number, string]> = { 1: [20, 'SHA-1'], 2: [32, 'SHA-256'] };
export const TLSA_DIGESTS: Record<number, [number, string]> = { 1: [32, 'SHA2-256'], 2: [64, 'SHA2-512'] };

export function digestLength(table: Record<number, [number, string]>, what: string, kind: string, type: number, data: Uint8Array): void {
  const known = table[type];
  if (known && data.length !== known[0]) {
    throw new RuleError(`${what} must be ${known[0]} octets (${known[0] * 2} hex digits) for ${kind} ${type} (${known[1]})`);
  }
}
