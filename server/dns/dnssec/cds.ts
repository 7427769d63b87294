/**
 * What a child zone tells its parent in band (RFC 7344, RFC 8078): CDS and CDNSKEY at the apex
 * of a signed zone, one of each per active key (both keys during a rollover), so parents that
 * scan their children's apexes (.ch, .se, .cz and others) keep the DS current; and, for a while
 * after DNSSEC is turned off, the delete form (RFC 8078 §4) asking the parent to remove the DS.
 * These RRsets are the service's own: no record row makes them and zone exports leave them out.
 */
import { dsDigest, DIGEST_SHA256 } from '../../services/dnssec/key-material';
import { type RRset } from '../index/rrset';
import { DNSKEY_TTL, type SigningKey } from './keys';

export const CDS = 59;
export const CDNSKEY = 60;

/** CDS rdata (RFC 7344 §3.1, the DS format of RFC 4034 §5.1): key tag, algorithm, SHA-256 digest. */
function cdsRdata(zone: string, key: SigningKey): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(key.tag, 0);
  head[2] = key.algorithm;
  head[3] = DIGEST_SHA256;
  return Buffer.concat([head, Buffer.from(dsDigest(zone, key.dnskey), 'hex')]);
}

/**
 * The CDS and CDNSKEY RRsets of a signed zone: one record per key the parent should point at now
 * (both keys while a rollover asks the parent for the new one beside the old), TTL as the DNSKEY set's.
 */
export function cdsRRsets(zone: string, keys: readonly SigningKey[], ttl = DNSKEY_TTL): RRset[] {
  const listed = keys.filter((k) => k.inCds);
  if (listed.length === 0) return [];
  return [
    { name: zone, type: CDS, ttl, data: listed.map((k) => cdsRdata(zone, k)) },
    { name: zone, type: CDNSKEY, ttl, data: listed.map((k) => k.dnskey) },
  ];
}

/**
 * The delete form (RFC 8078 §4): `CDS 0 0 0 00` and `CDNSKEY 0 3 0 AA==`, algorithm 0 meaning
 * "remove every DS". A one-octet digest and key, as the RFC writes them and BIND and Knot publish.
 */
export function deleteRRsets(zone: string): RRset[] {
  return [
    { name: zone, type: CDS, ttl: DNSKEY_TTL, data: [Buffer.from([0, 0, 0, 0, 0])] },
    { name: zone, type: CDNSKEY, ttl: DNSKEY_TTL, data: [Buffer.from([0, 0, 3, 0, 0])] },
  ];
}
