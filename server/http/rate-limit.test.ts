import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { TokenBuckets } from './rate-limit';

describe('token buckets', () => {
  it('allows a burst, then the sustained rate, and says how long to wait', () => {
    let now = 0;
    const b = new TokenBuckets({ perSecond: 2, burst: 3 }, () => now);
    expect([b.take('k'), b.take('k'), b.take('k')]).toEqual([0, 0, 0]);
    expect(b.take('k')).toBe(1);
    now = 500; // half a second refills one request at 2/s
    expect(b.take('k')).toBe(0);
    expect(b.take('k')).toBeGreaterThan(0);
    expect(b.take('other')).toBe(0);
  });
});

describe('per-token limit on the API', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('answers 429 with Retry-After and the error body once a token exceeds its burst; other tokens go on', async () => {
    t = await createTestApp({ RATE_LIMIT_TOKEN: '1,5' });
    const alice = await t.user('alice');
    const bob = await t.user('bob');
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.request('GET', '/api/v1/ips', { token: alice })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const res = await t.request('GET', '/api/v1/ips', { token: alice });
    expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect((await res.json()).error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((await t.request('GET', '/api/v1/ips', { token: bob })).status).toBe(200);
  });

  it('with the default limits, a sync tool reading 1,000 records back to back (a Terraform refresh) gets no 429', async () => {
    // An empty variable is unset: the default applies.
    t = await createTestApp({ RATE_LIMIT_TOKEN: '', RATE_LIMIT_ADDRESS: '' });
    const token = await t.user('alice');
    expect((await t.request('POST', '/api/v1/domains', { token, body: { name: 'refresh.example' } })).status).toBe(201);
    const { id } = await (await t.request('POST', '/api/v1/domains/refresh.example/records', { token, body: { name: 'www', record_type: 'A', content: '192.0.2.1' } })).json();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const status = (await t.request('GET', `/api/v1/domains/refresh.example/records/${id}`, { token })).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1000 });
  });
});

describe('health and metrics', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('reports liveness, readiness and Prometheus metrics by route and status', async () => {
    t = await createTestApp();
    await t.user('alice');
    expect(await (await t.request('GET', '/healthz', { token: null })).json()).toEqual({ status: 'ok' });
    expect((await t.request('GET', '/readyz', { token: null })).status).toBe(200);
    await t.request('GET', '/api/v1/ips');
    await t.request('GET', '/api/v1/domains/nope.example');
    const metrics = await (await t.request('GET', '/metrics', { token: null })).text();
    expect(metrics).toMatch(/zonedeck_http_requests_total\{route="\/api\/v1\/ips",method="GET",status="200"\} [1-9]/);
    expect(metrics).toMatch(/zonedeck_http_requests_total\{route="\/api\/v1\/domains\/:name",method="GET",status="404"\} [1-9]/);
    expect(metrics).toMatch(/zonedeck_http_request_duration_seconds_bucket\{le="0.1",route="\/api\/v1\/ips",method="GET"\}/);
    const { countDnsResponse } = await import('../counters');
    countDnsResponse('udp', Buffer.from([0, 0, 0x84, 0x03]));
    const after = await (await t.request('GET', '/metrics', { token: null })).text();
    expect(after).toMatch(/zonedeck_dns_responses_total\{transport="udp",rcode="NXDOMAIN"\} [1-9]/);
    await t.forge.close();
    const down = await t.request('GET', '/readyz', { token: null });
    expect(down.status).toBe(503);
  });
});
