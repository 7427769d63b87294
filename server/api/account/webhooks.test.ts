/** The webhooks API: the secret shown once, CRUD, input errors naming the field with nothing changed, the per-user limit, isolation, and which zones' events a webhook hears of. */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { inMemory, join } from '../../testing/team-members';

let t: TestApp;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = await createTestApp({ MAX_WEBHOOKS_PER_USER: '3' });
  alice = await t.user('alice');
  bob = await t.user('bob');
});
afterEach(() => t.close());

const HOOK = 'https://hooks.example.com/zonedeck';

async function call(method: string, path: string, body?: unknown, token = alice) {
  const res = await t.request(method, `/api/v1${path}`, { token, body });
  return { res, body: res.status === 204 ? null : await res.json() };
}
const create = (body: unknown, token = alice) => call('POST', '/webhooks', body, token);
const list = async (token = alice) => (await call('GET', '/webhooks', undefined, token)).body;
const zone = async (name: string, token = alice, extra: object = {}) => expect((await call('POST', '/domains', { name, ...extra }, token)).res.status).toBe(201);
const deliveries = async (id: number, token = alice) => (await call('GET', `/webhooks/${id}/deliveries`, undefined, token)).body;

describe('POST /webhooks', () => {
  it('answers 201 with a generated secret once; lists and reads never show it', async () => {
    const { res, body } = await create({ url: HOOK, events: ['zone.changed', 'secondary.failing'], description: 'chat' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      id: expect.any(Number),
      url: HOOK,
      events: ['zone.changed', 'secondary.failing'],
      zones: null,
      team: null,
      description: 'chat',
      active: true,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { secret: _secret, ...shown } = body;
    expect(await list()).toEqual([shown]);
    expect((await call('GET', `/webhooks/${body.id}`)).body).toEqual(shown);
    expect((await create({ url: HOOK, events: ['zone.changed'] })).body.secret).not.toBe(body.secret);
  });

  it.skipIf(Boolean(process.env.ZONEDECK_TEST_POSTGRES))('keeps the secret sealed at rest, bound to its webhook', async () => {
    const { body } = await create({ url: HOOK, events: ['zone.changed'], secret: 'a secret of twenty chars' });
    const db = new Database(path.join(t.dir, 'zonedeck.db'), { readonly: true });
    const row = db.prepare('select secret from webhooks where id = ?').get(body.id) as { secret: string };
    db.close();
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(body.secret);
  });

  it('takes a secret brought along, a list of zones and a team', async () => {
    await zone('example.com');
    const secret = 'a secret of twenty chars';
    const own = await create({ url: HOOK, events: ['zone.changed'], zones: ['Example.COM.'], secret });
    expect(own.res.status).toBe(201);
    expect(own.body).toMatchObject({ zones: ['example.com'], secret });
    expect((await call('POST', '/teams', { name: 'ops' })).res.status).toBe(201);
    await zone('ops.example', alice, { team: 'ops' });
    const team = await create({ url: HOOK, events: ['dnssec.ds_changed'], team: 'ops', zones: ['ops.example'] });
    expect(team.res.status).toBe(201);
    expect(team.body).toMatchObject({ team: 'ops', zones: ['ops.example'] });
  });

  it.each([
    [{ events: ['zone.changed'] }, 'url', 'is required'],
    [{ url: 'ftp://hooks.example.com/', events: ['zone.changed'] }, 'url', expect.stringMatching(/http or https/)],
    [{ url: 'not a url', events: ['zone.changed'] }, 'url', expect.stringMatching(/http or https/)],
    [{ url: `https://hooks.example.com/${'x'.repeat(2000)}`, events: ['zone.changed'] }, 'url', 'must be at most 2000 characters'],
    [{ url: 'https://user:pw@hooks.example.com/', events: ['zone.changed'] }, 'url', expect.stringMatching(/user name or password/)],
    [{ url: 'http://127.0.0.1:8080/hook', events: ['zone.changed'] }, 'url', expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE/)],
    [{ url: 'http://[::1]/hook', events: ['zone.changed'] }, 'url', expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE/)],
    [{ url: 'http://10.1.2.3/hook', events: ['zone.changed'] }, 'url', expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE/)],
    [{ url: 'http://[::ffff:192.168.1.1]/hook', events: ['zone.changed'] }, 'url', expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE/)],
    [{ url: HOOK }, 'events', 'is required'],
    [{ url: HOOK, events: [] }, 'events', expect.stringMatching(/at least one of zone.changed/)],
    [{ url: HOOK, events: ['zone.deleted'] }, 'events.0', expect.stringMatching(/must be one of zone.changed/)],
    [{ url: HOOK, events: ['zone.changed', 'zone.changed'] }, 'events.1', 'lists zone.changed a second time'],
    [{ url: HOOK, events: ['zone.changed'], zones: ['nowhere.example'] }, 'zones.0', 'is not a zone you may read'],
    [{ url: HOOK, events: ['zone.changed'], zones: ['-bad-'] }, 'zones.0', expect.any(String)],
    [{ url: HOOK, events: ['zone.changed'], team: 'nobody' }, 'team', 'is not a team you belong to'],
    [{ url: HOOK, events: ['zone.changed'], secret: 'short' }, 'secret', 'must be 16–256 characters'],
    [{ url: HOOK, events: ['zone.changed'], secret: 'x'.repeat(257) }, 'secret', 'must be 16–256 characters'],
    [{ url: HOOK, events: ['zone.changed'], description: 'a\u0007b' }, 'description', expect.stringMatching(/^must not contain control characters/)],
    [{ url: HOOK, events: ['zone.changed'], active: false }, 'active', expect.any(String)],
  ])('answers 400 naming the field for %j, and makes nothing', async (input, field, message) => {
    const { res, body } = await create(input);
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ status: 400, code: 'invalid_field', fields: { [field]: message } });
    expect(await list()).toEqual([]);
  });

  it("refuses another user's zone exactly as a missing one", async () => {
    await zone('bob.example', bob);
    const { res, body } = await create({ url: HOOK, events: ['zone.changed'], zones: ['bob.example'] });
    expect(res.status).toBe(400);
    expect(body.error.fields).toEqual({ 'zones.0': 'is not a zone you may read' });
  });

  it('answers 403 past MAX_WEBHOOKS_PER_USER, for this user only', async () => {
    for (let i = 0; i < 3; i++) expect((await create({ url: HOOK, events: ['zone.changed'] })).res.status).toBe(201);
    const { res, body } = await create({ url: HOOK, events: ['zone.changed'] });
    expect(res.status).toBe(403);
    expect(body.error.message).toMatch(/MAX_WEBHOOKS_PER_USER/);
    expect(await list()).toHaveLength(3);
    expect((await create({ url: HOOK, events: ['zone.changed'] }, bob)).res.status).toBe(201);
  });

  it('refuses a token with a scope', async () => {
    const scoped = await call('POST', '/tokens', { label: 'scoped', scope: { zones: ['example.com'] } });
    const { res } = await create({ url: HOOK, events: ['zone.changed'] }, scoped.body.token);
    expect(res.status).toBe(403);
    expect((await call('GET', '/webhooks', undefined, scoped.body.token)).res.status).toBe(403);
  });
});

describe('PUT and DELETE /webhooks/:id', () => {
  it('changes the fields given and keeps the others; a bad one changes nothing', async () => {
    const { body: made } = await create({ url: HOOK, events: ['zone.changed'], description: 'first' });
    const put = await call('PUT', `/webhooks/${made.id}`, { events: ['delegation.changed'], active: false });
    expect(put.res.status).toBe(200);
    expect(put.body).toMatchObject({ url: HOOK, events: ['delegation.changed'], description: 'first', active: false });
    const bad = await call('PUT', `/webhooks/${made.id}`, { url: 'http://192.168.0.1/', description: 'second' });
    expect(bad.res.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['url']);
    expect((await call('GET', `/webhooks/${made.id}`)).body).toMatchObject({ url: HOOK, description: 'first' });
  });

  it("answers 404 for another user's webhook, on every route, and leaves it be", async () => {
    const { body: made } = await create({ url: HOOK, events: ['zone.changed'] });
    for (const [method, path, body] of [
      ['GET', `/webhooks/${made.id}`],
      ['PUT', `/webhooks/${made.id}`, { description: 'mine now' }],
      ['DELETE', `/webhooks/${made.id}`],
      ['GET', `/webhooks/${made.id}/deliveries`],
      ['POST', `/webhooks/${made.id}/ping`],
      ['POST', `/webhooks/${made.id}/deliveries/1/redeliver`],
    ] as const) {
      const { res } = await call(method, path, body, bob);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(await list(bob)).toEqual([]);
    expect(await list()).toMatchObject([{ id: made.id, description: '' }]);
    expect(await deliveries(made.id)).toEqual([]);
  });

  it('deletes a webhook with its deliveries', async () => {
    const { body: made } = await create({ url: HOOK, events: ['zone.changed'] });
    expect((await call('POST', `/webhooks/${made.id}/ping`)).res.status).toBe(202);
    expect((await call('DELETE', `/webhooks/${made.id}`)).res.status).toBe(204);
    expect((await call('GET', `/webhooks/${made.id}`)).res.status).toBe(404);
    expect(await list()).toEqual([]);
  });
});

describe('which events a webhook hears of', () => {
  it('a change set of a zone its owner may read; never one of a zone they cannot', async () => {
    await zone('alice.example');
    await zone('bob.example', bob);
    const { body: mine } = await create({ url: HOOK, events: ['zone.changed'] });
    const { body: listed } = await create({ url: HOOK, events: ['zone.changed'], zones: ['alice.example'] });
    const { body: other } = await create({ url: HOOK, events: ['delegation.changed'] });
    const { body: bobs } = await create({ url: HOOK, events: ['zone.changed'] }, bob);
    await call('POST', '/domains/alice.example/records', { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' });
    await call('POST', '/domains/bob.example/records', { name: 'www', record_type: 'A', content: '192.0.2.2', ttl: '300' }, bob);
    await t.services.webhooks.idle();
    const got = await deliveries(mine.id);
    expect(got.map((d: { zone: string }) => d.zone)).toContain('alice.example');
    expect(got.map((d: { zone: string }) => d.zone)).not.toContain('bob.example');
    const change = got.find((d: { zone: string; event: string }) => d.zone === 'alice.example' && d.event === 'zone.changed');
    expect(change).toMatchObject({ status: 'pending', attempts: [], event_id: expect.any(String) });
    expect(await deliveries(listed.id)).toHaveLength(got.length);
    expect(await deliveries(other.id)).toEqual([]);
    expect((await deliveries(bobs.id, bob)).map((d: { zone: string }) => d.zone)).toContain('bob.example');
    expect((await deliveries(bobs.id, bob)).map((d: { zone: string }) => d.zone)).not.toContain('alice.example');
  });

  it("a team's webhook hears of the team's zones while its owner is a member", async () => {
    const api = inMemory(t);
    expect((await call('POST', '/teams', { name: 'ops' }, bob)).res.status).toBe(201);
    await join(api, 'ops', bob, { username: 'alice', token: alice }, 'viewer');
    await zone('ops.example', bob, { team: 'ops' });
    await zone('alice.example');
    const { body: hook } = await create({ url: HOOK, events: ['zone.changed'], team: 'ops' });
    expect(hook.team).toBe('ops');
    const ops = (await t.services.store.domains.byName('ops.example'))!;
    const own = (await t.services.store.domains.byName('alice.example'))!;
    await t.services.webhooks.emit('zone.changed', ops.id, {});
    await t.services.webhooks.emit('zone.changed', own.id, {});
    expect((await deliveries(hook.id)).map((d: { zone: string }) => d.zone)).toEqual(['ops.example']);
    // Out of the team, nothing more.
    expect((await api(bob, 'DELETE', '/teams/ops/members/alice')).status).toBe(204);
    await t.services.webhooks.emit('zone.changed', ops.id, {});
    expect(await deliveries(hook.id)).toHaveLength(1);
  });

  it('an inactive webhook hears of nothing; a ping is queued whatever it takes', async () => {
    await zone('alice.example');
    const { body: hook } = await create({ url: HOOK, events: ['delegation.changed'] });
    await call('PUT', `/webhooks/${hook.id}`, { active: false });
    const z = (await t.services.store.domains.byName('alice.example'))!;
    await t.services.webhooks.emit('delegation.changed', z.id, { delegated: true });
    expect(await deliveries(hook.id)).toEqual([]);
    const ping = await call('POST', `/webhooks/${hook.id}/ping`);
    expect(ping.res.status).toBe(202);
    expect(ping.body).toMatchObject({ event: 'ping', zone: null, status: 'pending' });
    expect(await deliveries(hook.id)).toMatchObject([{ id: ping.body.id, event: 'ping' }]);
  });
});
