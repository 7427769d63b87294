/**
 * While the service is read-only, the banner asks now and then whether it answers again: for the
 * database, the session endpoint (it reads the database, and is the cheapest thing that does); for
 * a full disk, the node's readiness, which says so until a write finds space again.
 */
import { ApiError, request } from './api-client';
import type { Outage, OutageKind } from './outage';
import { bff } from './paths';
import { pollDelayMs } from './retry-policy';

/** True once the service answers again for `kind`; false while it still does not, or cannot be reached. */
export async function answersAgain(kind: OutageKind): Promise<boolean> {
  try {
    if (kind === 'store_unavailable') {
      await request('GET', bff.session);
      return true;
    }
    const ready = await request<{ disk_full_since?: string }>('GET', bff.readyz);
    return !ready.disk_full_since;
  } catch (e) {
    // Any other refusal of the session (signed out meanwhile) came from the database: it answers.
    return kind === 'store_unavailable' && e instanceof ApiError && e.status > 0 && e.status < 500;
  }
}

export interface RecoveryPoll {
  /** Ask at once (the user pressed "Check now"), then go on waiting as before. */
  now(): void;
  stop(): void;
}

/** Asks `check` after Retry-After, then less and less often, until it says yes; then calls `recovered` once. */
export function pollUntilRecovered(outage: Outage, check: () => Promise<boolean>, recovered: () => void): RecoveryPoll {
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let asking = false;
  const ask = async () => {
    if (stopped || asking) return;
    clearTimeout(timer);
    asking = true;
    const ok = await check().catch(() => false);
    asking = false;
    if (stopped) return;
    if (ok) {
      stopped = true;
      recovered();
      return;
    }
    timer = setTimeout(() => void ask(), pollDelayMs(++attempt, outage.retryAfterS));
  };
  timer = setTimeout(() => void ask(), pollDelayMs(attempt, outage.retryAfterS));
  return {
    now: () => void ask(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
