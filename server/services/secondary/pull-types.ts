/**
 * The words between a secondary zone's refresh (this service) and the network client that asks
 * its primary (dns/transfer/zone-pull.ts, handed in by the composition root): a primary's SOA, the
 * records of a transfer, and what a transfer brought.
 */
import type { HostPort } from '../../core/host-port';
import type { SoaFields } from '../../core/zone-file/types';

/** A primary's SOA as it came (its names lower case, no trailing dot), with its TTL. */
export interface PulledSoa extends SoaFields {
  ttl: number;
}

/** One record of a transfer: its name relative to the zone, type, TTL and canonical content. */
export interface PulledRecord {
  name: string;
  record_type: string;
  ttl: number;
  content: string;
}

/** One step of an incremental transfer: the records that went between serials `from` and `to`, and those that came. */
export interface PulledStep {
  from: number;
  to: number;
  removed: PulledRecord[];
  added: PulledRecord[];
}

export type Pulled =
  /** The primary's serial is the one held (or older): nothing to do. */
  | { kind: 'current'; soa: PulledSoa }
  /** The whole zone (AXFR, or an IXFR answered in AXFR form); `skipped`: records of types zonedeck does not carry. */
  | { kind: 'full'; soa: PulledSoa; records: PulledRecord[]; skipped: number }
  | { kind: 'incremental'; soa: PulledSoa; steps: PulledStep[]; skipped: number };

export interface PullLimits {
  /** Most records a zone may hold (MAX_RECORDS_PER_ZONE); a transfer that sends more fails. */
  maxRecords: number;
  /** Longest a whole transfer may take, and longest the primary may stay silent (ms). */
  timeoutMs?: number;
  idleMs?: number;
}

/** A TSIG key as the client signs with it. */
export interface PullKey {
  name: string;
  algorithm: string;
  secret: Buffer;
}

/** What the refresh asks of the network: the primary's SOA, and the zone's changes since `held` (or all of it). */
export interface PullClient {
  soa(primary: HostPort, zone: string, key?: PullKey): Promise<PulledSoa>;
  pull(primary: HostPort, zone: string, held: PulledSoa | null, limits: PullLimits, key?: PullKey, ixfr?: boolean): Promise<Pulled>;
}
