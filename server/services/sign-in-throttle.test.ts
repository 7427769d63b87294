/**
 * The sign-in throttle counts failures in the database: two processes on one store (two
 * nodes, or a restart) see the same counts, a key is forgotten after 15 quiet minutes, and
 * forgotten rows are deleted rather than kept forever.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite';
import type { Store } from '../store/types';
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
    const keys = ['user:alice', 'addr:192.0.2.1'];
    for (let i = 0; i < 5; i++) {
      expect(await (i % 2 ? two : one).retryAfterMs(keys)).toBe(0);
      await (i % 2 ? two : one).failed(keys);
    }
    expect(await one.retryAfterMs(keys)).toBe(1000);
    expect(await two.retryAfterMs(['user:alice'])).toBe(1000);
    clock.now += 1000;
    await two.failed(keys);
    expect(await one.retryAfterMs(keys)).toBe(2000);
    // A success clears the username, not the address.
    await one.succeeded(['user:alice']);
    expect(await two.retryAfterMs(['user:alice'])).toBe(0);
    expect(await two.retryAfterMs(['addr:192.0.2.1'])).toBe(2000);
  });

  it('forgets a key after 15 quiet minutes, and deletes the rows it forgot', async () => {
    const one = createSignInThrottle(a.signInFailures, DEFAULT_THROTTLE, now);
    clock.now += DEFAULT_THROTTLE.forgetAfterMs + 1;
    expect(await one.retryAfterMs(['addr:192.0.2.1'])).toBe(0);
    // A failure after the quiet period counts from one again.
    await one.failed(['addr:192.0.2.1']);
    expect((await a.signInFailures.byKeys(['addr:192.0.2.1']))[0]!.failures).toBe(1);
    await one.failed(['user:bob']);
    clock.now += DEFAULT_THROTTLE.forgetAfterMs + 1;
    await one.failed(['user:carol']);
    expect(await a.signInFailures.byKeys(['addr:192.0.2.1', 'user:bob', 'user:carol'])).toEqual([expect.objectContaining({ key: 'user:carol' })]);
  });
});
