/**
 * The MACs of signed UPDATEs seen within the TSIG time window (RFC 8945 §5.2.3: ±300 s), per key,
 * so that a captured UPDATE sent again is refused. Bounded: at most MAX_PER_KEY entries a key and
 * MAX_KEYS keys, the oldest forgotten first; an entry outlives the window it could be replayed in.
 * Per DNS thread: a replay sent to another node is not seen (docs/dynamic-updates.md).
 */
import { FUDGE } from './tsig';

export class ReplayCache {
  private static readonly MAX_PER_KEY = 10_000;
  private static readonly MAX_KEYS = 1_000;
  private readonly byKey = new Map<string, Map<string, number>>();

  /** Whether this MAC was seen before (and records it); `now` and `signed` in seconds. */
  seen(key: string, mac: Uint8Array, signed: number, now: number): boolean {
    let macs = this.byKey.get(key);
    if (!macs) {
      if (this.byKey.size >= ReplayCache.MAX_KEYS) this.byKey.delete(this.byKey.keys().next().value!);
      macs = new Map();
      this.byKey.set(key, macs);
    }
    const id = Buffer.from(mac).toString('base64');
    const until = macs.get(id);
    if (until !== undefined && until >= now) return true;
    // Expired entries leave from the front (insertion order is time order, near enough).
    for (const [k, t] of macs) {
      if (t >= now && macs.size < ReplayCache.MAX_PER_KEY) break;
      macs.delete(k);
    }
    macs.set(id, Math.max(signed, now) + FUDGE);
    return false;
  }
}
