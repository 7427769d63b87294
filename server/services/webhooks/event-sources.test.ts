/**
 * The events other services tell webhooks of, as a webhook's delivery log shows them: a delegation
 * found and lost (not its re-checks), and a secondary zone whose checks fail, once per failing streak.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { Transition } from '../health/checker';
import type { PullClient } from '../secondary/pull-types';

let t: TestApp;
let alice: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
});
afterEach(async () => {
  t.services.secondaries.stop();
  await t.close();
});

const api = async (method: string, path: string, body?: unknown) => {
  const res = await t.request(method, `/api/v1${path}`, { token: alice, body });
  return { status: res.status, body: await res.json() };
};
const hookFor = async (events: string[]) => (await api('POST', '/webhooks', { url: 'https://hooks.example.com/zonedeck', events })).body.id as number;
const log = async (id: number) => (await api('GET', `/webhooks/${id}/deliveries`)).body as { event: string; zone: string; status: string }[];
const bodies = async (id: number) => (await t.services.store.webhookDeliveries.page(id, { offset: 0, limit: 50 })).rows.map((d) => JSON.parse(d.body));

describe('event sources', () => {
  it('delegation.changed when the stored flag changes, not when a check finds it as it was', async () => {
    expect((await api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
    const hook = await hookFor(['delegation.changed']);
    const zone = (await t.services.store.domains.byName('example.com'))!;
    await t.services.changes.markDelegated(zone.id, true);
    await t.services.changes.markDelegated(zone.id, true);
    await t.services.changes.markDelegated(zone.id, false);
    await t.services.webhooks.idle();
    expect(await log(hook)).toHaveLength(2);
    expect((await bodies(hook)).map((b) => [b.event, b.zone, b.data])).toEqual([
      ['delegation.changed', 'example.com', { delegated: false }],
      ['delegation.changed', 'example.com', { delegated: true }],
    ]);
  });

  it('dnssec.ds_changed when a parent hosted here takes the DS of its signed child', async () => {
    for (const name of ['example.com', 'sub.example.com']) expect((await api('POST', '/domains', { name, dnssec_enabled: true })).status).toBe(201);
    const hook = await hookFor(['dnssec.ds_changed']);
    t.services.dnssec.configure({ propagationS: 1, resolver: null, secondaries: false, node: 'test', log: { info() {}, warn() {}, error() {} } });
    const child = (await t.services.store.domains.byName('sub.example.com'))!;
    await t.services.dnssec.drive(child.id);
    await t.services.dnssec.drive(child.id);
    await t.services.webhooks.idle();
    const [key] = await t.services.store.dnssecKeys.publicKeys([child.id]);
    expect(await bodies(hook)).toMatchObject([
      { event: 'dnssec.ds_changed', zone: 'sub.example.com', data: { parent: 'example.com', hosted: true, ds_before: [], ds_after: [expect.stringMatching(new RegExp(`^${key!.key_tag} `))] } },
    ]);
  });

  it('pool.member.down and up as the node that recorded the move tells it', async () => {
    expect((await api('POST', '/domains', { name: 'example.com' })).status).toBe(201);
    const down = await hookFor(['pool.member.down']);
    const zone = (await t.services.store.domains.byName('example.com'))!;
    const pool = { id: 1, name: 'www', type: 'A' } as Transition['pool'];
    t.services.webhooks.poolMemberMoved({ zone, pool, address: '198.51.100.7', from: 'up', to: 'down', at: '2026-12-01T00:00:00.000Z', votes: 'up 0, down 2' });
    t.services.webhooks.poolMemberMoved({ zone, pool, address: '198.51.100.7', from: 'down', to: 'up', at: '2026-12-01T00:01:00.000Z', votes: 'up 2, down 0' });
    await t.services.webhooks.idle();
    expect(await bodies(down)).toMatchObject([
      { event: 'pool.member.down', zone: 'example.com', data: { pool: { id: 1, name: 'www', type: 'A' }, address: '198.51.100.7', from: 'up', to: 'down', votes: 'up 0, down 2' } },
    ]);
  });

  it('secondary.failing once when checks of a secondary begin to fail, not at every retry', async () => {
    expect((await api('POST', '/domains', { name: 'sec.example', kind: 'secondary', primaries: ['192.0.2.53:53'] })).status).toBe(201);
    const hook = await hookFor(['secondary.failing']);
    const zone = (await t.services.store.domains.byName('sec.example'))!;
    const unreachable: PullClient = {
      soa: async () => {
        throw new Error('no answer in 5 s');
      },
      pull: async () => {
        throw new Error('no answer in 5 s');
      },
    };
    const refresher = t.services.secondaries.start(unreachable, { node: 'test', maxRecords: 1000, log: { warn() {}, error() {}, info() {} } as never });
    refresher.stop();
    for (let i = 0; i < 3; i++) await refresher.check(zone.id);
    await t.services.webhooks.idle();
    expect(await log(hook)).toHaveLength(1);
    const [body] = await bodies(hook);
    expect(body).toMatchObject({ event: 'secondary.failing', zone: 'sec.example', data: { state: 'failing', error: expect.stringContaining('no answer'), primaries: ['192.0.2.53:53'] } });
  });
});
