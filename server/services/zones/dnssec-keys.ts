/**
 * DNSSEC key material: a new CSK for a zone, and the public facts derived from it
 * that the parent needs: the DNSKEY rdata (RFC 4034 §2.1), its key tag (RFC 4034 App. B)
 * and the SHA-256 DS digest (RFC 4034 §5.1.4, RFC 4509). One algorithm only: ECDSA P-256
 * with SHA-256, algorithm 13 (RFC 6605), whose public key field is the 64-octet point x||y.
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { DnssecKeyRow, DnssecPublicKey, DomainRow, NewRow } from '../../store/types';

export const ALGORITHM_ECDSAP256SHA256 = 13;
/** Zone Key + Secure Entry Point: one key signs everything and is the one the DS points at. */
export const CSK_FLAGS = 257;
const PROTOCOL = 3;
export const DIGEST_SHA256 = 2;

/** The wire form of a zone name (LDH labels, as zone names are normalized), lower case (RFC 4034 §6.2). */
export function zoneNameWire(name: string): Buffer {
  const parts: Buffer[] = [];
  for (const label of name.split('.').filter(Boolean)) {
    const bytes = Buffer.from(label.toLowerCase(), 'latin1');
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** DNSKEY rdata: flags, protocol 3, algorithm, public key (RFC 4034 §2.1). */
export function dnskeyRdata(flags: number, algorithm: number, publicKey: Buffer): Buffer {
  const out = Buffer.alloc(4 + publicKey.length);
  out.writeUInt16BE(flags, 0);
  out[2] = PROTOCOL;
  out[3] = algorithm;
  publicKey.copy(out, 4);
  return out;
}

/** The key tag of a DNSKEY rdata (RFC 4034 Appendix B, for every algorithm but 1). */
export function keyTag(rdata: Buffer): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i]! : rdata[i]! << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

/** digest = SHA-256(owner name | DNSKEY rdata) (RFC 4034 §5.1.4), upper-case hex as zone files show it. */
export function dsDigest(zone: string, rdata: Buffer): string {
  return createHash('sha256').update(zoneNameWire(zone)).update(rdata).digest('hex').toUpperCase();
}

/** The 64-octet public point of a P-256 key (RFC 6605 §4). */
export function p256PublicPoint(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  return Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
}

/** The node:crypto public key of a DNSKEY public key field (for verifying in tests and tools). */
export function p256PublicKey(point: Buffer): KeyObject {
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(0, 32).toString('base64url'), y: point.subarray(32, 64).toString('base64url') }, format: 'jwk' });
}

/** A fresh CSK for `zone`, ready to store: the key pair, its tag and DS digest. */
export function newCsk(domainId: number, zone: string, createdAt: string): NewRow<DnssecKeyRow> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const point = p256PublicPoint(publicKey);
  const rdata = dnskeyRdata(CSK_FLAGS, ALGORITHM_ECDSAP256SHA256, point);
  return {
    domain_id: domainId,
    flags: CSK_FLAGS,
    algorithm: ALGORITHM_ECDSAP256SHA256,
    key_tag: keyTag(rdata),
    public_key: point.toString('base64'),
    ds_digest: dsDigest(zone, rdata),
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    created_at: createdAt,
  };
}

/** The DS record of a key in zone-file form, as registrars ask for it. */
export const dsText = (zone: string, k: DnssecPublicKey): string => `${zone}. IN DS ${k.key_tag} ${k.algorithm} ${DIGEST_SHA256} ${k.ds_digest}`;

/** The DNSKEY record of a key in zone-file form (some registries take it instead of a DS). */
export const dnskeyText = (zone: string, k: DnssecPublicKey): string => `${zone}. IN DNSKEY ${k.flags} ${PROTOCOL} ${k.algorithm} ${k.public_key}`;

/**
 * How long the delete form stays after DNSSEC is turned off: 7 days is the longest scan
 * cycle of the registries that act on CDS/CDNSKEY (.cz, .cr check for 7 days before acting;
 * .ch, .li, .se, .nu for 72 hours), so every scanning parent sees it more than once.
 */
export const DELETE_SIGNAL_MS = 7 * 86_400_000;

/** When the delete form stops being published, or null when it is not due at all (signed, or never signed). */
export function deleteSignalEnd(domain: Pick<DomainRow, 'dnssec_enabled' | 'dnssec_disabled_at'>): number | null {
  if (domain.dnssec_enabled || !domain.dnssec_disabled_at) return null;
  return Date.parse(domain.dnssec_disabled_at) + DELETE_SIGNAL_MS;
}
