/**
 * The messages between the main thread (thread.ts) and the DNS thread (worker.ts). The DNS thread
 * writes nothing: what it learns that must be stored (an RFC 2136 update, an ALIAS serial, a
 * delegation flag, query counts) goes to the main thread as one of these, and is written there.
 */
import type { StatsBatch } from '../../core/query-stats-fields';
import type { UpdateRequest } from '../../services/changes/dynamic-updates';
import type { ZoneChange } from '../../services/changes/events';
import type { UdpThreadCounts } from '../wire/udp-threads';

export type ToWorker = { type: 'changes'; changes: ZoneChange[] } | { type: 'update-done'; id: number; rcode: number } | { type: 'close' };
export type FromWorker =
  | { type: 'ready'; port: number }
  | { type: 'failed'; message: string }
  /** Its counters each second; `background`: its background failures by job (the delegation check). */
  | { type: 'metrics'; udp: Float64Array; tcp: Float64Array; defences: Float64Array; snapshot: Float64Array; udpThreads: UdpThreadCounts[]; background: [job: string, count: number][] }
  /** An RFC 2136 update this thread verified, for the main thread to apply (every write happens there). */
  | { type: 'update'; id: number; request: UpdateRequest }
  /** A zone's ALIAS addresses changed: the main thread gives it a new serial (services/alias-serials.ts). */
  | { type: 'alias-changed'; zoneId: number }
  /** The delegation check found a zone's `delegated` flag changed: the main thread stores it. */
  | { type: 'delegated'; zoneId: number; delegated: boolean }
  /** A NOTIFY from a secondary zone's primary: the main thread has the zone checked now. */
  | { type: 'notified'; zoneId: number }
  /** Start-up: zones loaded so far of all hosted. */
  | { type: 'loading'; loaded: number; total: number }
  /** Per-zone query counts of the last STATS_FLUSH_MS, for the main thread to store. */
  | { type: 'stats'; batch: StatsBatch }
  | { type: 'closed' };
