/**
 * A user's IP ranges managed by an administrator over HTTP (the Users page): the same rules as the
 * CLI, the user sees them at once in their own `GET /ips`, every change is audited as the
 * administrator's, and nobody else reaches them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let root: string;
let alice: string;
beforeEach(async () => {
  t = await createTestApp();
  root = await t.user('root');
  alice = await t.user('alice');
  await t.user('bob');
  await t.forge.users.update((await t.services.accounts.userByName('root')).id, { is_admin: true });
});
afterEach(() => t.close());

const add = (token: string, username: string, body: unknown) => t.request('POST', `/api/v1/users/${username}/ips`, { token, body });
const ranges = async (token: string, path: string) => (await (await t.request('GET', path, { token })).json()).map((ip: { address: string; cidr: number }) => `${ip.address}/${ip.cidr}`);

describe("an administrator and a user's IP ranges", () => {
  it('adds, lists and removes them; the user sees each change in their own list at once', async () => {
    expect(await ranges(alice, '/api/v1/ips')).toEqual([]);
    const res = await add(root, 'alice', { address: '198.51.100.0/24' });
    expect(res.status).toBe(201);
    const ip = await res.json();
    expect(ip).toMatchObject({ address: '198.51.100.0', cidr: 24, active: true, first: '198.51.100.0', last: '198.51.100.255', ipv4: true });
    expect((await add(root, 'alice', { address: '2001:db8::/48', active: false })).status).toBe(201);
    expect(await ranges(root, '/api/v1/users/alice/ips')).toEqual(['198.51.100.0/24', '2001:db8::/48']);
    expect(await ranges(alice, '/api/v1/ips')).toEqual(['198.51.100.0/24', '2001:db8::/48']);
    expect(await ranges(root, '/api/v1/users/bob/ips')).toEqual([]);

    expect((await t.request('DELETE', `/api/v1/users/alice/ips/${ip.id}`, { token: root })).status).toBe(204);
    expect(await ranges(alice, '/api/v1/ips')).toEqual(['2001:db8::/48']);

    const events = await (await t.request('GET', '/api/v1/audit?username=alice', { token: root })).json();
    const ipEvents = events.filter((e: { kind: string }) => e.kind.startsWith('ip-'));
    expect(ipEvents.map((e: { kind: string; actor: { username: string }; subject: string; detail: { address: string } }) => `${e.kind} ${e.actor.username} ${e.subject} ${e.detail.address}`)).toEqual([
      'ip-removed root alice 198.51.100.0/24',
      'ip-added root alice 2001:db8::/48',
      'ip-added root alice 198.51.100.0/24',
    ]);
  });

  it('answers a bad address with a 400 naming the field, a repeat with 409, and changes nothing', async () => {
    for (const address of ['198.51.100.0/33', 'not-an-ip', '']) {
      const res = await add(root, 'alice', { address });
      expect(res.status, address).toBe(400);
      expect(Object.keys((await res.json()).error.fields)).toEqual(['address']);
    }
    const missing = await add(root, 'alice', {});
    expect((await missing.json()).error.fields).toEqual({ address: 'is required' });
    const extra = await add(root, 'alice', { address: '192.0.2.1', user_id: 1 });
    expect(extra.status).toBe(400);
    expect((await add(root, 'alice', { address: '192.0.2.1' })).status).toBe(201);
    expect((await add(root, 'alice', { address: '192.0.2.1/32' })).status).toBe(409);
    expect(await ranges(alice, '/api/v1/ips')).toEqual(['192.0.2.1/32']);
  });

  it("answers 404 for a user who does not exist and for another user's range id", async () => {
    expect((await add(root, 'nobody', { address: '192.0.2.1' })).status).toBe(404);
    expect((await t.request('GET', '/api/v1/users/nobody/ips', { token: root })).status).toBe(404);
    const bobs = await (await add(root, 'bob', { address: '203.0.113.0/24' })).json();
    expect((await t.request('DELETE', `/api/v1/users/alice/ips/${bobs.id}`, { token: root })).status).toBe(404);
    expect((await t.request('DELETE', '/api/v1/users/alice/ips/abc', { token: root })).status).toBe(404);
    expect(await ranges(root, '/api/v1/users/bob/ips')).toEqual(['203.0.113.0/24']);
  });

  it('refuses every call of a user who is not an administrator (403), and any change by a scoped admin token', async () => {
    const bobs = await (await add(root, 'bob', { address: '203.0.113.0/24' })).json();
    for (const [method, path, body] of [
      ['GET', '/api/v1/users/bob/ips'],
      ['POST', '/api/v1/users/alice/ips', { address: '0.0.0.0/0' }],
      ['POST', '/api/v1/users/bob/ips', { address: '0.0.0.0/0' }],
      ['DELETE', `/api/v1/users/bob/ips/${bobs.id}`],
    ] as Array<[string, string, unknown?]>) {
      expect((await t.request(method, path, { token: alice, body })).status, `${method} ${path}`).toBe(403);
    }
    const { token } = await t.services.accounts.createToken((await t.services.accounts.userByName('root')).id, 'zones', null, { zones: ['example.com'] });
    expect((await t.request('GET', '/api/v1/users/bob/ips', { token })).status).toBe(200);
    expect((await add(token, 'alice', { address: '0.0.0.0/0' })).status).toBe(403);
    expect(await ranges(alice, '/api/v1/ips')).toEqual([]);
    expect(await ranges(root, '/api/v1/users/bob/ips')).toEqual(['203.0.113.0/24']);
  });
});
