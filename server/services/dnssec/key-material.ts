/**
 * DNSSEC key material: new keys for a zone, and the public facts derived from them that the parent
 * needs: the DNSKEY rdata (RFC 4034 §2.1), its key tag (RFC 4034 App. B) and the SHA-256 DS digest
 * (RFC 4034 §5.1.4, RFC 4509). Three algorithms, the ones RFC 8624 asks signers to use: ECDSA P-256
 * with SHA-256 (13) and P-384 with SHA-384 (14), whose public key field is the point x||y (RFC 6605
 * §4), and Ed25519 (15), whose field is the 32-octet public key (RFC 8080 §3).
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { DNSSEC_ALGORITHMS } from '../../core/dnssec-policy';
import type { DnssecKeyRow, DnssecPublicKey, DomainRow, KeyFlags, KeyRole, NewRow } from '../../store/types';

export const ALGORITHM_ECDSAP256SHA256 = DNSSEC_ALGORITHMS.ecdsap256sha256;
/** Zone Key + Secure Entry Point: a CSK or a KSK, the keys a DS points at (RFC 4034 §2.1.1, RFC 3757). */
export const CSK_FLAGS = 257;
/** Zone Key alone: a ZSK. */
export const ZSK_FLAGS = 256;
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

/** The curve of each ECDSA algorithm and the octets of one coordinate. */
const CURVES: Record<number, { crv: 'P-256' | 'P-384'; size: number }> = { 13: { crv: 'P-256', size: 32 }, 14: { crv: 'P-384', size: 48 } };

/** The DNSKEY public key field of a key (RFC 6605 §4: the point x||y; RFC 8080 §3: the raw Ed25519 key). */
export function publicKeyField(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv === 'Ed25519') return Buffer.from(jwk.x!, 'base64url');
  return Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
}

/** The 64-octet public point of a P-256 key (RFC 6605 §4). */
export const p256PublicPoint = publicKeyField;

/** The node:crypto public key of a DNSKEY public key field (for verifying in tests and tools). */
export function dnskeyPublicKey(algorithm: number, field: Buffer): KeyObject {
  if (algorithm === DNSSEC_ALGORITHMS.ed25519) return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: field.toString('base64url') }, format: 'jwk' });
  const c = CURVES[algorithm];
  if (!c) throw new Error(`algorithm ${algorithm} is not one zonedeck signs with`);
  return createPublicKey({ key: { kty: 'EC', crv: c.crv, x: field.subarray(0, c.size).toString('base64url'), y: field.subarray(c.size, 2 * c.size).toString('base64url') }, format: 'jwk' });
}

/** The node:crypto public key of a P-256 DNSKEY public key field. */
export const p256PublicKey = (point: Buffer): KeyObject => dnskeyPublicKey(ALGORITHM_ECDSAP256SHA256, point);

function keyPair(algorithm: number): { publicKey: KeyObject; privateKey: KeyObject } {
  if (algorithm === DNSSEC_ALGORITHMS.ed25519) return generateKeyPairSync('ed25519');
  const c = CURVES[algorithm];
  if (!c) throw new Error(`algorithm ${algorithm} is not one zonedeck signs with`);
  return generateKeyPairSync('ec', { namedCurve: c.crv });
}

/** What a key starts as when DNSSEC is turned on: in use at once, for the zone and for the parent. */
export const LIVE: KeyFlags = { state: 'active', published: true, signing: true, in_cds: true };

/** A fresh key for `zone` in `role`, ready to store: the key pair, its tag and DS digest, and its first state. */
export function newKey(domainId: number, zone: string, at: string, algorithm: number, role: KeyRole, flags: KeyFlags = LIVE): NewRow<DnssecKeyRow> {
  const { publicKey, privateKey } = keyPair(algorithm);
  const field = publicKeyField(publicKey);
  const dnskeyFlags = role === 'zsk' ? ZSK_FLAGS : CSK_FLAGS;
  const rdata = dnskeyRdata(dnskeyFlags, algorithm, field);
  return {
    domain_id: domainId,
    flags: dnskeyFlags,
    algorithm,
    key_tag: keyTag(rdata),
    public_key: field.toString('base64'),
    ds_digest: dsDigest(zone, rdata),
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    created_at: at,
    role,
    ...flags,
    state_at: at,
  };
}

/** A fresh P-256 CSK, in use at once (what turning DNSSEC on makes under the default policy). */
export const newCsk = (domainId: number, zone: string, createdAt: string): NewRow<DnssecKeyRow> => newKey(domainId, zone, createdAt, ALGORITHM_ECDSAP256SHA256, 'csk');

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
