/**
 * A zone's signing keys as the DNS server holds them: the private key ready for node:crypto,
 * the key tag, and the DNSKEY rdata that goes into the apex DNSKEY RRset (RFC 4034 §2).
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { dnskeyRdata } from '../../services/zones/dnssec-keys';
import type { DnssecKeyRow } from '../../store/types';
import { T, type RRset } from '../index/rrset';

export interface SigningKey {
  id: number;
  tag: number;
  algorithm: number;
  /** DNSKEY rdata: flags, protocol, algorithm, public key. */
  dnskey: Buffer;
  privateKey: KeyObject;
}

/**
 * The TTL of the DNSKEY RRset. A rollover waits this long (plus the parent's DS TTL) between
 * its steps; an hour keeps that short without making resolvers refetch keys often.
 */
export const DNSKEY_TTL = 3600;

export function signingKey(row: DnssecKeyRow): SigningKey {
  return {
    id: row.id,
    tag: row.key_tag,
    algorithm: row.algorithm,
    dnskey: dnskeyRdata(row.flags, row.algorithm, Buffer.from(row.public_key, 'base64')),
    privateKey: createPrivateKey({ key: Buffer.from(row.private_key, 'base64'), format: 'der', type: 'pkcs8' }),
  };
}

export function dnskeyRRset(zone: string, keys: readonly SigningKey[]): RRset {
  return { name: zone, type: T.DNSKEY, ttl: DNSKEY_TTL, data: keys.map((k) => k.dnskey) };
}
