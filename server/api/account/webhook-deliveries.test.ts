/**
 * Webhook deliveries end to end, to a real receiver on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE, in this
 * test only): every delivery is signed with the webhook's secret, a receiver that answers 500 twice
 * sees the retries and then takes it, the delivery log shows the three attempts with their status
 * codes, and a redelivery sends it once more.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { deliver } from '../../outbound/deliver';
import { DeliveryDriver, type WebhookNetwork } from '../../services/webhooks/delivery-driver';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver that answers each request with the next status of `answers` (the last one after that). */
async function receiver(answers: number[]) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answers[Math.min(got.length, answers.length) - 1]!).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { got, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise((r) => server.close(r)) };
}

/** The network side main.ts hands in: server/outbound's `deliver`, allowed to reach loopback here (WEBHOOK_ALLOW_PRIVATE). */
const network: WebhookNetwork = { deliver };

let t: TestApp;
let alice: string;
let rx: Awaited<ReturnType<typeof receiver>>;
beforeEach(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_FIRST_S: '1' });
  alice = await t.user('alice');
  t.services.webhooks.start(network, { node: 'test', log: { warn() {}, error() {} } });
});
afterEach(async () => {
  t.services.webhooks.stop();
  await rx?.close();
  await t.close();
});

const api = async (method: string, path: string, body?: unknown) => {
  const res = await t.request(method, `/api/v1${path}`, { token: alice, body });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
};
/** A bound on each wait below, far above what it takes (a loaded machine runs the whole suite beside it). */
const WAIT = { timeout: 20_000 };
const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('webhook deliveries', () => {
  it('signs every delivery, retries after two 500s, logs the three attempts, and redelivers', async () => {
    rx = await receiver([500, 500, 200]);
    expect((await api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
    const hook = await api('POST', '/webhooks', { url: rx.url, events: ['zone.changed'] });
    expect(hook.status).toBe(201);
    const add = await api('POST', '/domains/example.com/records', { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' });
    expect(add.status).toBe(200);

    await expect.poll(() => rx.got.length, WAIT).toBe(3);
    for (const r of rx.got) {
      expect(r.headers['x-zonedeck-signature']).toBe(sign(hook.body.secret, r.body));
      expect(r.headers['x-zonedeck-event']).toBe('zone.changed');
      expect(r.headers['content-type']).toBe('application/json');
    }
    // The same delivery each time: one id, one body.
    expect(new Set(rx.got.map((r) => r.headers['x-zonedeck-delivery'])).size).toBe(1);
    expect(new Set(rx.got.map((r) => r.body)).size).toBe(1);
    const body = JSON.parse(rx.got[0]!.body);
    expect(body).toEqual({ id: expect.any(String), event: 'zone.changed', created_at: expect.any(String), zone: 'example.com', data: expect.any(Object) });
    expect(body.data).toMatchObject({
      source: 'api',
      actor: { username: 'alice' },
      added: [{ name: 'www', record_type: 'A', content: '192.0.2.1', ttl: 300 }],
      removed: [],
      added_count: 1,
      serial_after: expect.any(Number),
    });

    const log = async () => (await api('GET', `/webhooks/${hook.body.id}/deliveries`)).body;
    await expect.poll(async () => (await log())[0].status, WAIT).toBe('delivered');
    const [delivery] = await log();
    expect(String(delivery.id)).toBe(rx.got[0]!.headers['x-zonedeck-delivery']);
    expect(delivery).toMatchObject({ event: 'zone.changed', event_id: body.id, zone: 'example.com', next_attempt_at: null });
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    for (const a of delivery.attempts) expect(a).toMatchObject({ at: expect.any(String), status_code: expect.any(Number), ms: expect.any(Number) });
    expect(delivery.attempts[2].error).toBeNull();

    const again = await api('POST', `/webhooks/${hook.body.id}/deliveries/${delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    await expect.poll(() => rx.got.length, WAIT).toBe(4);
    expect(rx.got[3]!.headers['x-zonedeck-signature']).toBe(sign(hook.body.secret, rx.got[3]!.body));
    await expect.poll(async () => (await log())[0].attempts.length, WAIT).toBe(4);
    expect((await log())[0]).toMatchObject({ status: 'delivered' });
  });

  it("two nodes never send the same attempt: the lease of a delivery is one node's", async () => {
    rx = await receiver([200]);
    t.services.webhooks.stop();
    const hook = await api('POST', '/webhooks', { url: rx.url, events: ['zone.changed'] });
    const ping = await api('POST', `/webhooks/${hook.body.id}/ping`);
    const node = (name: string) => new DeliveryDriver(t.forge, network, { allowPrivate: true, retryFirstS: 1 }, { node: name, log: { warn() {}, error() {} } });
    await Promise.all([node('a').send(ping.body.id), node('b').send(ping.body.id), node('c').send(ping.body.id)]);
    expect(rx.got).toHaveLength(1);
    const [logged] = (await api('GET', `/webhooks/${hook.body.id}/deliveries`)).body;
    expect(logged).toMatchObject({ status: 'delivered', attempts: [{ status_code: 200 }] });
  });

  it('a ping goes out at once, and a receiver that cannot be reached leaves the error in the log', async () => {
    rx = await receiver([204]);
    const hook = await api('POST', '/webhooks', { url: rx.url, events: ['secondary.failing'] });
    expect((await api('POST', `/webhooks/${hook.body.id}/ping`)).status).toBe(202);
    await expect.poll(() => rx.got.length, WAIT).toBe(1);
    expect(rx.got[0]!.headers['x-zonedeck-event']).toBe('ping');
    expect(JSON.parse(rx.got[0]!.body)).toMatchObject({ event: 'ping', zone: null, data: { webhook: { id: hook.body.id } } });

    await rx.close();
    expect((await api('POST', `/webhooks/${hook.body.id}/ping`)).status).toBe(202);
    const log = async () => (await api('GET', `/webhooks/${hook.body.id}/deliveries`)).body;
    await expect.poll(async () => (await log())[0].attempts.length, WAIT).toBeGreaterThan(0);
    expect((await log())[0]).toMatchObject({ status: 'pending', attempts: [{ status_code: null, error: expect.any(String) }], next_attempt_at: expect.any(String) });
  });
});
