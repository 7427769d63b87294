/** Signing keys for the DNSSEC unit tests: a fresh CSK as the store would hold it, and its verifier. */
import { verify } from 'node:crypto';
import { newCsk, p256PublicKey } from '../services/dnssec/key-material';
import type { DnssecKeyRow } from '../store/types';
import { canonicalRRset, nameWire } from '../dns/dnssec/canonical';
import { signingKey, type SigningKey } from '../dns/dnssec/keys';
import { signedData } from '../dns/dnssec/sign';
import type { RRset } from '../dns/index/rrset';

let nextId = 1;

export function testKey(zone: string): { key: SigningKey; row: DnssecKeyRow } {
  const row = { id: nextId++, ...newCsk(1, zone, '2026-01-01T00:00:00.000Z') };
  return { key: signingKey(row), row };
}

export interface ParsedRrsig {
  typeCovered: number;
  algorithm: number;
  labels: number;
  originalTtl: number;
  expiration: number;
  inception: number;
  keyTag: number;
  signature: Buffer;
  prefix: Buffer;
}

/** Splits an RRSIG rdata (RFC 4034 §3.1) whose signer name is `signer`. */
export function parseRrsig(rdata: Buffer, signer: string): ParsedRrsig {
  const end = 18 + nameWire(signer).length;
  return {
    typeCovered: rdata.readUInt16BE(0),
    algorithm: rdata[2]!,
    labels: rdata[3]!,
    originalTtl: rdata.readUInt32BE(4),
    expiration: rdata.readUInt32BE(8),
    inception: rdata.readUInt32BE(12),
    keyTag: rdata.readUInt16BE(16),
    prefix: rdata.subarray(0, end),
    signature: rdata.subarray(end),
  };
}

/** Verifies one RRSIG over `set` (signed under `owner`) with a DNSKEY public key, as a validator does. */
export function verifies(rdata: Buffer, set: RRset, publicKey: Buffer, signer: string, owner = set.name): boolean {
  const sig = parseRrsig(rdata, signer);
  const data = signedData(sig.prefix, canonicalRRset(set, owner, sig.originalTtl));
  return verify('sha256', data, { key: p256PublicKey(publicKey), dsaEncoding: 'ieee-p1363' }, sig.signature);
}
