/**
 * The resolver's unit of data: an RRset (RFC 2181 §5), one owner name, type and TTL with
 * its rdata in dns-packet's `data` shape. The resolver returns RRsets and only the encoder
 * turns them into bytes, so DNSSEC signing can later add RRSIGs per RRset in between.
 */

/** RR type codes used by the server (RFC 1035 §3.2.2, RFC 3596, RFC 6891, RFC 5936). */
export const T = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  DNAME: 39,
  OPT: 41,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  /** Meta-type marking a nonexistent name in a compact denial NSEC (RFC 9824 §3.1). */
  NXNAME: 128,
  IXFR: 251,
  AXFR: 252,
  MAILB: 253,
  MAILA: 254,
  ANY: 255,
  CAA: 257,
} as const;

/** Class IN (RFC 1035 §3.2.4). */
export const CLASS_IN = 1;

/** Response codes (RFC 1035 §4.1.1, RFC 2136 §2.2, RFC 6891 §9). */
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5, YXDOMAIN: 6, NOTAUTH: 9, BADVERS: 16 } as const;

export interface SoaData {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

export interface RRset {
  /** Owner name: lower case, absolute, without the trailing dot. */
  name: string;
  type: number;
  ttl: number;
  /**
   * One entry per record, in dns-packet's `data` shape for `type`; DNSSEC records (DNSKEY,
   * RRSIG, NSEC) carry their finished rdata as a Buffer, written as is.
   */
  data: unknown[];
}

/** The same RRset under another owner name (wildcard synthesis, RFC 4592 §3.3.1). */
export function withOwner(set: RRset, name: string): RRset {
  return set.name === name ? set : { ...set, name };
}
