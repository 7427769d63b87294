/**
 * A zone's signing keys as the DNS server holds them: the private key ready for node:crypto,
 * the key tag, the DNSKEY rdata that goes into the apex DNSKEY RRset (RFC 4034 §2), and what a
 * rollover has the key do now: be published, sign (the sets its role signs), be listed for the parent.
 */
import { DNSKEY_TTL } from '../../core/dnssec-policy';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { dnskeyRdata } from '../../services/dnssec/key-material';
import type { DnssecKeyRow, KeyRole } from '../../store/types';
import { T, type RRset } from '../index/rrset';

export interface SigningKey {
  id: number;
  tag: number;
  algorithm: number;
  /** DNSKEY rdata: flags, protocol, algorithm, public key. */
  dnskey: Buffer;
  privateKey: KeyObject;
  role: KeyRole;
  published: boolean;
  signing: boolean;
  inCds: boolean;
}

// The DNSKEY set's TTL rule is the rollovers' as well: one definition, in core.
export { DNSKEY_TTL, dnskeyTtl } from '../../core/dnssec-policy';

export function signingKey(row: DnssecKeyRow): SigningKey {
  return {
    id: row.id,
    tag: row.key_tag,
    algorithm: row.algorithm,
    dnskey: dnskeyRdata(row.flags, row.algorithm, Buffer.from(row.public_key, 'base64')),
    privateKey: createPrivateKey({ key: Buffer.from(row.private_key, 'base64'), format: 'der', type: 'pkcs8' }),
    role: row.role ?? 'csk',
    published: row.published ?? true,
    signing: row.signing ?? true,
    inCds: row.in_cds ?? true,
  };
}

/** The apex DNSKEY set: the keys published now (a rollover adds a key before it is used and keeps one after). */
export function dnskeyRRset(zone: string, keys: readonly SigningKey[], ttl = DNSKEY_TTL): RRset {
  return { name: zone, type: T.DNSKEY, ttl, data: keys.filter((k) => k.published).map((k) => k.dnskey) };
}

/** What tells one key set from another for the DNS server: ids and what each does. */
export const keysVersion = (keys: readonly SigningKey[]): string => keys.map((k) => `${k.id}${k.published ? 'p' : ''}${k.signing ? 's' : ''}${k.inCds ? 'c' : ''}`).join(',');
