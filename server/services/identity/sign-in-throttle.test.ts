/**
 * The sign-in throttle counts failures in the database: two processes on one store (two
 * nodes, or a restart) see the same counts, a key is forgotten after 15 quiet minutes, and
 * forgotten rows are deleted rather than kept forever. A user's failures hold only the addresses
 * that failed for them, until so many came from so many addresses that every address must wait.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../store/sqlite/sqlite';
import type { Store } from '../../store/types';
import { createSignInThrottle, DEFAULT_THROTTLE } from './sign-in-throttle';

let dir: string;
let a: Store;
let b: Store;
const clock = { now: Date.UTC(2026, 0, 1) };
const now = () => clock.now;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-throttle-'));
  a = await openSqliteStore(path.join(dir, 'zonedeck.db'));
  b = await openSqliteStore(path.join(dir, 'zonedeck.db'));
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sign-in throttle', () => {
  it('counts failures made through either process, doubling the wait after the fifth', async () => {
    const one = createSignInThrottle(a.signInFailures, DEFAULT_THROTTLE, now);
    const two = createSignInThrottle(b.signInFailures, DEFAULT_THROTTLE, now);
    const alice = { username: 'alice', address: '192.0.2.1' };
    for (let i = 0; i < 5; i++) {
      expect(await (i % 2 ? two : one).retryAfterMs(alice)).toBe(0);
      await (i % 2 ? two : one).failed(alice);
    }
    expect(await one.retryAfterMs(alice)).toBe(1000);
    // The address waits for every username.
    expect(await two.retryAfterMs({ username: 'bob', address: '192.0.2.1' })).toBe(1000);
    clock.now += 1000;
    await two.failed(alice);
    expect(await one.retryAfterMs(alice)).toBe(2000);
    // A success forgets this address's failures for alice, not the address's own.
    await one.succeeded(alice);
    expect(await two.retryAfterMs({ address: '192.0.2.1' })).toBe(2000);
  });

  it('forgets a key after 15 quiet minutes, and deletes the rows it forgot', async () => {
    const one = createSignInThrottle(a.signInFailures, DEFAULT_THROTTLE, now);
    clock.now += DEFAULT_THROTTLE.forgetAfterMs + 1;
    expect(await one.retryAfterMs({ address: '192.0.2.1' })).toBe(0);
    // A failure after the quiet period counts from one again.
    await one.failed({ address: '192.0.2.1' });
    expect((await a.signInFailures.byKeys(['addr:192.0.2.1']))[0]!.failures).toBe(1);
    await one.failed({ username: 'bob', address: '192.0.2.2' });
    clock.now += DEFAULT_THROTTLE.forgetAfterMs + 1;
    await one.failed({ username: 'carol', address: '192.0.2.3' });
    expect((await a.signInFailures.byKeys(['addr:192.0.2.1', 'user:bob', 'pair:bob@192.0.2.2', 'addr:192.0.2.2', 'user:carol'])).map((r) => r.key)).toEqual(['user:carol']);
  });
});

describe('the per-user count', () => {
  it("does not hold an address with no failures of its own: five wrong passwords from one address leave the owner's free", async () => {
    const t = createSignInThrottle(a.signInFailures, DEFAULT_THROTTLE, now);
    clock.now += DEFAULT_THROTTLE.forgetAfterMs + 1;
    const attacker = { username: 'dora', address: '198.51.100.66' };
    for (let i = 0; i < 5; i++) expect(await t.reserve(attacker)).toBe(0);
    expect(await t.reserve(attacker)).toBeGreaterThan(0);
    expect(await t.retryAfterMs({ username: 'dora', address: '203.0.113.5' })).toBe(0);
    // Another address of the attacker's /64 is the same client.
    const v6 = { username: 'dora', address: '2001:db8:1:2::66' };
    for (let i = 0; i < 5; i++) await t.failed(v6);
    expect(await t.retryAfterMs({ username: 'dora', address: '2001:db8:1:2:ffff::1' })).toBe(1000);
    expect(await t.retryAfterMs({ username: 'dora', address: '2001:db8:1:3::1' })).toBe(0);
  });

  it('past 50 failures holds the addresses that failed for the user; past 1,000 every address', async () => {
    const t = createSignInThrottle(a.signInFailures, DEFAULT_THROTTLE, now);
    clock.now += DEFAULT_THROTTLE.forgetAfterMs + 1;
    const from = (i: number) => ({ username: 'erin', address: `10.0.${Math.floor(i / 250)}.${i % 250}` });
    // 50 addresses, one failure each: none of them has used up its own five.
    for (let i = 0; i < 50; i++) expect(await t.reserve(from(i))).toBe(0);
    expect(await t.retryAfterMs(from(0))).toBe(1000);
    // An address with no failure for erin is not held, nor is the owner's.
    expect(await t.reserve(from(50))).toBe(0);
    expect(await t.retryAfterMs({ username: 'erin', address: '203.0.113.5' })).toBe(0);
    // A thousand failures from as many addresses: now every address waits, the owner's too.
    for (let i = 51; i < 1000; i++) await t.failed(from(i));
    expect(await t.retryAfterMs({ username: 'erin', address: '203.0.113.5' })).toBe(1000);
    clock.now += 1000;
    expect(await t.reserve({ username: 'erin', address: '203.0.113.5' })).toBe(0);
  });
});

describe('a step of the clock', () => {
  it('does not hold a user for the hour a step back puts between now and their last failure, and goes on counting', async () => {
    const throttle = createSignInThrottle(a.signInFailures, DEFAULT_THROTTLE, now);
    const carol = { username: 'carol', address: '192.0.2.7' };
    for (let i = 0; i < 6; i++) await throttle.failed(carol);
    expect(await throttle.retryAfterMs(carol)).toBe(2000);
    clock.now -= 3_600_000;
    expect(await throttle.retryAfterMs(carol)).toBe(0);
    // The failure after the step doubles the wait, counted on the stepped clock.
    expect(await throttle.reserve(carol)).toBe(0);
    expect(await throttle.retryAfterMs(carol)).toBe(4000);
    // Another node's clock a few seconds behind still waits, no more than the delay.
    clock.now -= 5000;
    expect(await throttle.retryAfterMs(carol)).toBe(4000);
  });
});
