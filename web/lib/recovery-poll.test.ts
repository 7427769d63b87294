import { afterEach, describe, expect, it, vi } from 'vitest';
import { answersAgain, pollUntilRecovered } from './recovery-poll';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const storeGone = () => json({ error: { status: 503, code: 'store_unavailable', message: 'the database does not answer' } }, 503, { 'retry-after': '5' });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('whether the service answers again', () => {
  it('asks the session endpoint while the database is away: 503 is no, a session or a 401 is yes', async () => {
    const fetch = vi.fn(async () => storeGone());
    vi.stubGlobal('fetch', fetch);
    expect(await answersAgain('store_unavailable')).toBe(false);
    const calls = () => fetch.mock.calls as unknown as Array<[string, RequestInit]>;
    expect(calls()[0]).toEqual(['/bff/session', expect.objectContaining({ method: 'GET' })]);
    fetch.mockImplementation(async () => json({ username: 'alice', csrf_token: 't' }));
    expect(await answersAgain('store_unavailable')).toBe(true);
    // Signed out meanwhile: the database answered that.
    fetch.mockImplementation(async () => json({ error: { status: 401, code: 'signed_out', message: 'gone' } }, 401));
    expect(await answersAgain('store_unavailable')).toBe(true);
    fetch.mockImplementation(async () => Promise.reject(new TypeError('unreachable')));
    expect(await answersAgain('store_unavailable')).toBe(false);
  });

  it("asks the node's readiness while the disk is full, until it no longer says so", async () => {
    const fetch = vi.fn(async () => json({ status: 'degraded', reason: 'the disk under the database is full', disk_full_since: '2026-01-01T00:00:00Z' }));
    vi.stubGlobal('fetch', fetch);
    expect(await answersAgain('insufficient_storage')).toBe(false);
    expect((fetch.mock.calls as unknown as Array<[string]>)[0]![0]).toBe('/readyz');
    fetch.mockImplementation(async () => json({ status: 'ready', schema_version: 40 }));
    expect(await answersAgain('insufficient_storage')).toBe(true);
    // A readiness the proxy does not pass on says nothing: the next write that goes through ends it.
    fetch.mockImplementation(async () => new Response('not here', { status: 404 }));
    expect(await answersAgain('insufficient_storage')).toBe(false);
  });
});

describe('the poll until the service answers again', () => {
  it('asks after Retry-After, then less and less often, and stops at the first yes', async () => {
    vi.useFakeTimers();
    const answers = [false, false, true];
    const check = vi.fn(async () => answers.shift()!);
    const recovered = vi.fn();
    pollUntilRecovered({ kind: 'store_unavailable', retryAfterS: 5 }, check, recovered);
    await vi.advanceTimersByTimeAsync(4999);
    expect(check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(7500);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(11_250);
    expect(check).toHaveBeenCalledTimes(3);
    expect(recovered).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('asks at once on "Check now", and asks nothing once stopped', async () => {
    vi.useFakeTimers();
    const check = vi.fn(async () => false);
    const poll = pollUntilRecovered({ kind: 'insufficient_storage', retryAfterS: 5 }, check, () => {});
    poll.now();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    poll.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(check).toHaveBeenCalledTimes(1);
  });
});
