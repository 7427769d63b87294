/**
 * The sign-in throttle reserves the attempt before the password is checked: 40 wrong passwords
 * sent at once from one address, at most 5 are checked (401), the rest wait (429 with
 * Retry-After); the right password from there waits too, but the owner at another address signs
 * in. Spread over 40 addresses, the user's own count bounds them. Both stores (the throttle is
 * shared by nodes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  // A first delay (after the free failures) longer than the test, however slow the machine: the
  // last check cannot outlast it. The user's count holds every address past 10 failures here.
  t = await createTestApp({}, { throttle: { freeFailures: 5, userFreeFailures: 8, userHardFailures: 10, baseDelayMs: 60_000, maxDelayMs: 60_000, forgetAfterMs: 15 * 60_000 } });
  await t.user('alice'); // password123
  await t.user('carol');
});
afterAll(() => t.close());

const signIn = (username: string, password: string, address: string) =>
  t.request('POST', '/bff/sign-in', { token: null, address, headers: { origin: 'http://localhost' }, body: { username, password } });

describe('the sign-in throttle under parallel guesses', () => {
  it("checks at most 5 of 40 simultaneous wrong passwords from one address, and leaves the owner's address free", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn('alice', `wrong-${i}`, '192.0.2.1')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(40);
    for (const r of answers.filter((a) => a.status === 429)) expect(r.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    // The right password waits too from there, until the delay has passed.
    expect((await signIn('alice', 'password123', '192.0.2.1')).status).toBe(429);
    // The owner, at an address that has not failed, is not held by what another address tried.
    expect((await signIn('alice', 'password123', '198.51.100.7')).status).toBe(200);
  });

  it("bounds guesses spread over many addresses by the user's own count", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn('carol', `wrong-${i}`, `203.0.113.${i + 1}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(40);
  });

  it('a right password within the free tries signs in and does not count against the address', async () => {
    await t.user('bob');
    const bob = (password: string) => t.request('POST', '/bff/sign-in', { token: null, address: '198.51.100.9', headers: { origin: 'http://localhost' }, body: { username: 'bob', password } });
    for (let i = 0; i < 4; i++) expect((await bob('wrong')).status).toBe(401);
    expect((await bob('password123')).status).toBe(200);
    const rows = await t.services.store.signInFailures.byKeys(['user:bob', 'pair:bob@198.51.100.9', 'addr:198.51.100.9']);
    expect(Object.fromEntries(rows.filter((r) => r.failures > 0).map((r) => [r.key, r.failures]))).toEqual({ 'addr:198.51.100.9': 4, 'user:bob': 4 });
  });
});
