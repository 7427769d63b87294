/**
 * Plain counters, bumped where the work runs and read by /metrics on scrape (server/metrics.ts,
 * which names them for Prometheus): the DNS server's typed arrays, which its hot path bumps (a label
 * lookup per packet would cost a tenth of the query rate), and background failures by job. The DNS
 * thread posts its own to the main thread each second. No prom-client here: the DNS thread loads
 * none of it (nor its collectors of process metrics).
 */

/** DNS responses by transport, by the rcode of their header. */
export const dnsResponses = { udp: new Float64Array(16), tcp: new Float64Array(16) };

/** Counts one response by the rcode in its header (RFC 1035 §4.1.1). */
export function countDnsResponse(transport: 'udp' | 'tcp', response: Buffer): void {
  if (response.length >= 4) dnsResponses[transport][response[3]! & 15]! += 1;
}

/** The DNS port's defences: responses rate limiting dropped or slipped (sent truncated), DNS cookies by verdict, NOTIFY taken or ignored. */
export const dnsDefences = new Float64Array(7);
export const DEFENCE = { RRL_DROPPED: 0, RRL_SLIPPED: 1, COOKIE_GOOD: 2, COOKIE_NEW: 3, COOKIE_BAD: 4, NOTIFY_TAKEN: 5, NOTIFY_IGNORED: 6 } as const;

/** The start-up snapshot's faults: unreadable, a zone's block damaged, a write that failed. */
export const snapshotFaults = new Float64Array(3);
export const SNAPSHOT_FAULT = { unreadable: 0, zone_damaged: 1, write_failed: 2 } as const;

/** Background work that failed (server/background.ts and the jobs' own catches), by job, in this thread. */
export const backgroundFailureCounts = new Map<string, number>();
/** The DNS thread's own background failures (its delegation check), as its last report gave them. */
export const dnsThreadBackgroundFailures = new Map<string, number>();

export function countBackgroundFailure(job: string): void {
  backgroundFailureCounts.set(job, (backgroundFailureCounts.get(job) ?? 0) + 1);
}
