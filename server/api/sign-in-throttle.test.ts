/**
 * Issue 24, finding 8: the sign-in throttle reserves the attempt before the password is checked.
 * 40 wrong passwords sent at once: at most 5 are checked (401), the rest wait (429 with
 * Retry-After); the right password then waits too. Both stores (the throttle is shared by nodes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  // A first delay (after the 5 free failures) longer than the test, however slow the machine: the last check cannot outlast it.
  t = await createTestApp({}, { throttle: { freeFailures: 5, baseDelayMs: 60_000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000 } });
  await t.user('alice'); // password123
});
afterAll(() => t.close());

const signIn = (password: string, address: string) =>
  t.request('POST', '/bff/sign-in', { token: null, address, headers: { origin: 'http://localhost' }, body: { username: 'alice', password } });

describe('the sign-in throttle under parallel guesses', () => {
  it('checks at most 5 of 40 simultaneous wrong passwords', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(`wrong-${i}`, `192.0.2.${i + 1}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(40);
    for (const r of answers.filter((a) => a.status === 429)) expect(r.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    // The right password waits too, until the delay has passed.
    expect((await signIn('password123', '198.51.100.7')).status).toBe(429);
  });

  it('a right password within the free tries signs in and does not count against the address', async () => {
    await t.user('bob');
    const bob = (password: string) => t.request('POST', '/bff/sign-in', { token: null, address: '203.0.113.9', headers: { origin: 'http://localhost' }, body: { username: 'bob', password } });
    for (let i = 0; i < 4; i++) expect((await bob('wrong')).status).toBe(401);
    expect((await bob('password123')).status).toBe(200);
    const rows = await t.services.store.signInFailures.byKeys(['user:bob', 'addr:203.0.113.9']);
    expect(Object.fromEntries(rows.map((r) => [r.key, r.failures]))).toEqual({ 'addr:203.0.113.9': 4 });
  });
});
