/**
 * Load shedding: the places and their queue alone (order of service, a full queue, a wait run out,
 * a client gone), then over a real HTTP listener, where a client sees the 503 `overloaded` with
 * Retry-After, /healthz answers while the API sheds, a request whose body was never sent is
 * answered from the queue without it, and a client that hangs up leaves the queue.
 */
import net from 'node:net';
import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientGone } from '../core/errors';
import { errorResponse } from '../api/errors';
import { loadConfig } from '../config';
import { httpLoad } from '../metrics';
import { waitUntil } from '../testing/wait-until';
import { HttpError } from './http-error';
import { startHttp, stopHttp, type NodeBindings } from './http-server';
import { Admission, OVERLOAD_RETRY_AFTER_S, shedLoad } from './overload';

const live = () => ({ signal: new AbortController().signal });

/** What `err` would answer: its status, code and Retry-After. */
function answer(err: unknown) {
  expect(err).toBeInstanceOf(HttpError);
  const e = err as HttpError;
  return { status: e.status, code: e.code, retryAfter: e.headers['Retry-After'] };
}

describe('the places and their queue', () => {
  it('serves the waiting in the order they came as places are given back', async () => {
    const admission = new Admission({ maxInflight: 2, maxQueue: 10, queueWaitMs: 60_000 });
    expect(admission.enter(live())).toBeUndefined();
    expect(admission.enter(live())).toBeUndefined();
    const served: number[] = [];
    const waits = [1, 2, 3, 4].map((n) => admission.enter(live())!.then(() => served.push(n)));
    expect(admission.load).toEqual({ inflight: 2, queued: 4 });
    for (let i = 0; i < 4; i++) admission.leave();
    await Promise.all(waits);
    expect(served).toEqual([1, 2, 3, 4]);
    expect(admission.load).toEqual({ inflight: 2, queued: 0 });
    admission.leave();
    admission.leave();
    expect(admission.load).toEqual({ inflight: 0, queued: 0 });
  });

  it('refuses at once with 503 overloaded and Retry-After when the queue is full, counted as queue_full', async () => {
    const admission = new Admission({ maxInflight: 1, maxQueue: 1, queueWaitMs: 60_000 });
    admission.enter(live());
    // The one waiting goes away at the end (the test leaves no wait behind to run out later).
    const client = new AbortController();
    const waiting = admission.enter({ signal: client.signal })!.catch((e: unknown) => e);
    const before = httpLoad.shed.queue_full;
    let thrown: unknown;
    try {
      admission.enter(live());
    } catch (e) {
      thrown = e;
    }
    expect(answer(thrown)).toEqual({ status: 503, code: 'overloaded', retryAfter: String(OVERLOAD_RETRY_AFTER_S) });
    expect(httpLoad.shed.queue_full).toBe(before + 1);
    expect(admission.load).toEqual({ inflight: 1, queued: 1 });
    client.abort();
    expect(await waiting).toBeInstanceOf(ClientGone);
  });

  it('refuses a request that waited its time, and serves the next one in its stead', async () => {
    const admission = new Admission({ maxInflight: 1, maxQueue: 5, queueWaitMs: 20 });
    admission.enter(live());
    const before = httpLoad.shed.queue_wait;
    const err = await admission.enter(live())!.catch((e: unknown) => e);
    expect(answer(err)).toEqual({ status: 503, code: 'overloaded', retryAfter: String(OVERLOAD_RETRY_AFTER_S) });
    expect(httpLoad.shed.queue_wait).toBe(before + 1);
    expect(admission.load).toEqual({ inflight: 1, queued: 0 });
  });

  it('drops a waiter whose client went away: the place it waited for goes to the one behind it', async () => {
    const admission = new Admission({ maxInflight: 1, maxQueue: 5, queueWaitMs: 60_000 });
    admission.enter(live());
    const client = new AbortController();
    const gone = admission.enter({ signal: client.signal })!.then(
      () => 'served',
      (e: unknown) => e,
    );
    let behindServed = false;
    const behind = admission.enter(live())!.then(() => (behindServed = true));
    client.abort();
    expect(await gone).toBeInstanceOf(ClientGone);
    expect(admission.load).toEqual({ inflight: 1, queued: 1 });
    admission.leave();
    await behind;
    expect(behindServed).toBe(true);
    expect(admission.load).toEqual({ inflight: 1, queued: 0 });
  });
});

describe('over HTTP', () => {
  let server: ServerType;
  let url: string;
  let admission: Admission;
  // Each /api/hold request is answered when the test releases it.
  const held: Array<() => void> = [];

  beforeAll(async () => {
    admission = new Admission({ maxInflight: 1, maxQueue: 1, queueWaitMs: 300 });
    const app = new Hono<{ Bindings: NodeBindings }>();
    app.use('*', shedLoad({ admission, loopLate: null }));
    app.get('/healthz', (c) => c.json({ status: 'ok' }));
    app.get('/api/hold', async (c) => {
      await new Promise<void>((resolve) => held.push(resolve));
      return c.json({ served: true });
    });
    app.put('/api/body', async (c) => c.json({ length: (await c.req.text()).length }));
    app.onError((err, c) => errorResponse(c, err, () => {}));
    const config = loadConfig({ PORT: '0', DATA_DIR: ':memory:' });
    ({ server, url } = await startHttp(app.fetch, config));
  });
  afterAll(() => stopHttp(server, 100));

  it('answers 503 overloaded with Retry-After past the queue while /healthz answers; the held ones are served after', async () => {
    const first = fetch(`${url}/api/hold`);
    await waitUntil('the first request is served', () => held.length === 1);
    const second = fetch(`${url}/api/hold`);
    await waitUntil('the second request waits', () => admission.load.queued === 1);

    const refused = await fetch(`${url}/api/hold`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe(String(OVERLOAD_RETRY_AFTER_S));
    // A client turned away comes back on a new connection, through the listen queue.
    expect(refused.headers.get('connection')).toBe('close');
    const body = (await refused.json()) as { error: { status: number; code: string; message: string } };
    expect(body.error).toMatchObject({ status: 503, code: 'overloaded' });
    expect(body.error.message).toMatch(/busy.*try again in a moment/);

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);

    held.shift()!();
    expect((await first).status).toBe(200);
    await waitUntil('the second request is served', () => held.length === 1);
    held.shift()!();
    expect((await second).status).toBe(200);
  });

  it('answers a queued request from the queue without waiting for its body, which was never sent', async () => {
    const holder = fetch(`${url}/api/hold`);
    await waitUntil('a request holds the place', () => held.length === 1);
    // Headers that announce a megabyte, and not one byte of it: only a server that reads no body
    // before the request's turn can answer this.
    const status = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(Number(new URL(url).port), '127.0.0.1');
      let got = '';
      sock.on('data', (d) => {
        got += d.toString();
        if (got.includes('\r\n')) {
          resolve(got.split('\r\n')[0]!);
          sock.destroy();
        }
      });
      sock.on('error', reject);
      sock.write('PUT /api/body HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1048576\r\n\r\n');
    });
    expect(status).toBe('HTTP/1.1 503 Service Unavailable');
    held.shift()!();
    expect((await holder).status).toBe(200);
  });

  it('forgets a queued request whose client hung up', async () => {
    const holder = fetch(`${url}/api/hold`);
    await waitUntil('a request holds the place', () => held.length === 1);
    const sock = net.connect(Number(new URL(url).port), '127.0.0.1');
    sock.write('GET /api/hold HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil('the request waits', () => admission.load.queued === 1);
    sock.destroy();
    await waitUntil('it leaves the queue', () => admission.load.queued === 0);
    held.shift()!();
    expect((await holder).status).toBe(200);
    // Its place was not handed to the one that hung up: nothing is served, nothing is held.
    await waitUntil('every place is free', () => admission.load.inflight === 0);
    expect(held).toHaveLength(0);
  });
});
