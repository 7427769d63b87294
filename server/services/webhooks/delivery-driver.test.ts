/** When a failed delivery is tried again: after the first wait, doubled each time up to an hour, and never past 24 hours after its event. */
import { describe, expect, it } from 'vitest';
import { afterFailure, signature } from './delivery-driver';

const at = (iso: string) => new Date(iso);
const failed = (n: number) => Array.from({ length: n }, () => ({ at: '', status_code: 500, error: null, ms: 1 }));

describe('afterFailure', () => {
  it('waits the first wait, then doubles it, up to an hour', () => {
    const created_at = '2026-01-01T00:00:00.000Z';
    const now = at('2026-01-01T00:00:00.000Z');
    const waits = [0, 1, 2, 3, 9, 12].map((n) => (Date.parse(afterFailure({ created_at, attempts: failed(n) }, now, 10).next_attempt_at!) - now.getTime()) / 1000);
    expect(waits).toEqual([10, 20, 40, 80, 3600, 3600]);
  });

  it('gives up once the next attempt would come more than 24 hours after the event', () => {
    const created_at = '2026-01-01T00:00:00.000Z';
    expect(afterFailure({ created_at, attempts: failed(20) }, at('2026-01-01T23:00:00.000Z'), 10)).toEqual({ status: 'pending', next_attempt_at: '2026-01-02T00:00:00.000Z' });
    expect(afterFailure({ created_at, attempts: failed(20) }, at('2026-01-01T23:00:01.000Z'), 10)).toEqual({ status: 'failed', next_attempt_at: null });
  });
});

describe('signature', () => {
  it('is the hex HMAC-SHA256 of the body under the secret', () => {
    // RFC 4231 test case 2.
    expect(signature('Jefe', 'what do ya want for nothing?')).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});
