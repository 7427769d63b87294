import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { pollDelayMs, queryRetryDelay, shouldRetryQuery } from './retry-policy';

const answer = (status: number, code: string, retryAfterS?: number) => new ApiError(status, code, code, {}, undefined, retryAfterS);

describe('retrying a failed query', () => {
  it('never asks again after a 4xx or a full disk', () => {
    for (const err of [answer(400, 'invalid_field'), answer(404, 'not_found'), answer(403, 'forbidden'), answer(507, 'insufficient_storage')]) {
      expect(shouldRetryQuery(0, err), err.code).toBe(false);
    }
  });

  it('asks once more after a 503 or 429, and only after the Retry-After it names', () => {
    const gone = answer(503, 'store_unavailable', 5);
    expect(shouldRetryQuery(0, gone)).toBe(true);
    expect(shouldRetryQuery(1, gone)).toBe(false);
    expect(queryRetryDelay(0, gone)).toBe(5000);
    expect(queryRetryDelay(0, answer(429, 'rate_limited', 12))).toBe(12_000);
    // No Retry-After: the database's own 5 s.
    expect(queryRetryDelay(0, answer(503, 'overloaded'))).toBe(5000);
  });

  it('does not keep a page loading for a Retry-After longer than 30 s: the failure shows, the banner asks later', () => {
    expect(shouldRetryQuery(0, answer(503, 'store_unavailable', 120))).toBe(false);
  });

  it('retries other failures (the network, a 500) twice, backing off', () => {
    const network = answer(0, 'network');
    expect([0, 1, 2].map((n) => shouldRetryQuery(n, network))).toEqual([true, true, false]);
    expect(shouldRetryQuery(0, answer(500, 'internal'))).toBe(true);
    expect(shouldRetryQuery(0, new TypeError('x'))).toBe(true);
    expect([0, 1].map((n) => queryRetryDelay(n, network))).toEqual([1000, 2000]);
  });
});

describe("the banner's poll", () => {
  it('waits Retry-After first, then half as long again each time, up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => pollDelayMs(n, 5))).toEqual([5000, 7500, 11_250, 16_875, 25_312.5, 30_000, 30_000]);
  });

  it('never asks sooner than a Retry-After, even one above 30 s', () => {
    expect(pollDelayMs(0, 60)).toBe(60_000);
    expect(pollDelayMs(4, 60)).toBe(60_000);
    expect(pollDelayMs(0, 0)).toBe(1000);
  });
});
