/** A primary zone's own transfers through PUT/GET /domains/:name: the fields, their rules, who may set them. */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { inMemory, join } from '../../testing/team-members';

let t: TestApp;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  bob = await t.user('bob');
  expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'example.com' } })).status).toBe(201);
  expect((await t.request('POST', '/api/v1/tsig-keys', { token: alice, body: { name: 'alice-xfr' } })).status).toBe(201);
  expect((await t.request('POST', '/api/v1/tsig-keys', { token: bob, body: { name: 'bob-xfr' } })).status).toBe(201);
});
afterEach(() => t.close());

const put = (body: unknown, token = alice, zone = 'example.com') => t.request('PUT', `/api/v1/domains/${zone}`, { token, body });
const get = async (token = alice, zone = 'example.com') => (await t.request('GET', `/api/v1/domains/${zone}`, { token })).json();
const fieldsOf = async (res: Response) => {
  expect(res.status).toBe(400);
  return (await res.json()).error.fields as Record<string, string>;
};

describe('PUT /domains/:name transfers', () => {
  it('starts empty, takes the three fields in canonical form and shows them', async () => {
    expect(await get()).toMatchObject({ also_notify: [], allow_transfer: [], transfer_tsig_key: null });
    const serial = (await get()).serial_number;
    const res = await put({ also_notify: ['192.0.2.1:53', '[2001:DB8:0::1]:5353'], allow_transfer: ['198.51.100.0/24', '2001:db8::1'], transfer_tsig_key: 'Alice-XFR' });
    expect(res.status).toBe(200);
    const shown = { also_notify: ['192.0.2.1:53', '[2001:db8::1]:5353'], allow_transfer: ['198.51.100.0/24', '2001:db8::1'], transfer_tsig_key: 'alice-xfr' };
    expect(await res.json()).toMatchObject(shown);
    expect(await get()).toMatchObject({ ...shown, serial_number: expect.any(Number) });
    expect((await get()).serial_number).not.toBe(serial);
    // A setting like the SOA timers: a change set in the zone's history.
    const history = await (await t.request('GET', '/api/v1/domains/example.com/changes', { token: alice })).json();
    expect(history[0].settings).toMatchObject({ transfer_tsig_key: [null, 'alice-xfr'] });
  });

  it('a change of them is reverted like any zone setting', async () => {
    await put({ allow_transfer: ['192.0.2.0/24'] });
    const [change] = await (await t.request('GET', '/api/v1/domains/example.com/changes', { token: alice })).json();
    expect(change.settings).toEqual({ allow_transfer: [[], ['192.0.2.0/24']] });
    expect((await t.request('POST', `/api/v1/domains/example.com/changes/${change.id}/revert`, { token: alice })).status).toBeLessThan(300);
    expect((await get()).allow_transfer).toEqual([]);
  });

  it('leaves absent fields as they are, and clears with empty lists and null', async () => {
    await put({ also_notify: ['192.0.2.1:53'], allow_transfer: ['192.0.2.0/24'], transfer_tsig_key: 'alice-xfr' });
    await put({ minimum_ttl: 300 });
    expect(await get()).toMatchObject({ also_notify: ['192.0.2.1:53'], allow_transfer: ['192.0.2.0/24'], transfer_tsig_key: 'alice-xfr', minimum_ttl: 300 });
    expect((await put({ also_notify: [], allow_transfer: [], transfer_tsig_key: null })).status).toBe(200);
    expect(await get()).toMatchObject({ also_notify: [], allow_transfer: [], transfer_tsig_key: null });
  });

  it.each([
    [{ also_notify: ['ns1.example.net:53'] }, 'also_notify', /is not an IP address and port/],
    [{ also_notify: ['192.0.2.1'] }, 'also_notify', /is not an IP address and port/],
    [{ also_notify: ['2001:db8::1:53'] }, 'also_notify', /is not an IP address and port/],
    [{ also_notify: ['192.0.2.1:0'] }, 'also_notify', /port must be 1–65535/],
    [{ also_notify: ['192.0.2.1:65536'] }, 'also_notify', /port must be 1–65535/],
    [{ also_notify: ['192.0.2.1:53', '192.0.2.1:53'] }, 'also_notify', /twice/],
    [{ also_notify: Array.from({ length: 21 }, (_, i) => `192.0.2.${i + 1}:53`) }, 'also_notify', /at most 20/],
    [{ also_notify: '192.0.2.1:53' }, 'also_notify', /must be a list/],
    [{ allow_transfer: ['192.0.2.0/33'] }, 'allow_transfer', /is not an IP address or CIDR block/],
    [{ allow_transfer: ['any'] }, 'allow_transfer', /is not an IP address or CIDR block/],
    [{ allow_transfer: Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`) }, 'allow_transfer', /at most 50/],
    [{ transfer_tsig_key: 'no-such-key' }, 'transfer_tsig_key', /TSIG key this zone's owner holds/],
    [{ transfer_tsig_key: 5 }, 'transfer_tsig_key', /TSIG key/],
  ])('refuses %j naming the field, changing nothing', async (body, field, message) => {
    const before = await get();
    const fields = await fieldsOf(await put({ ...body, minimum_ttl: 300 }));
    expect(Object.keys(fields).some((f) => f === field || f.startsWith(`${field}.`))).toBe(true);
    expect(Object.entries(fields).find(([f]) => f.startsWith(field))![1]).toMatch(message);
    expect(await get()).toEqual(before);
  });
});

describe('isolation', () => {
  it("another tenant's key name is refused exactly as a missing one, and nothing is set", async () => {
    const foreign = await fieldsOf(await put({ transfer_tsig_key: 'bob-xfr' }));
    const missing = await fieldsOf(await put({ transfer_tsig_key: 'nobody-xfr' }));
    expect(foreign).toEqual(missing);
    expect((await get()).transfer_tsig_key).toBeNull();
  });

  it("user B can neither see nor set user A's zone's transfers", async () => {
    await put({ allow_transfer: ['192.0.2.0/24'], transfer_tsig_key: 'alice-xfr' });
    expect((await t.request('GET', '/api/v1/domains/example.com', { token: bob })).status).toBe(404);
    expect((await put({ allow_transfer: ['0.0.0.0/0'] }, bob)).status).toBe(404);
    // B's own zone cannot take A's key.
    expect((await t.request('POST', '/api/v1/domains', { token: bob, body: { name: 'bob.example' } })).status).toBe(201);
    expect(await fieldsOf(await put({ transfer_tsig_key: 'alice-xfr' }, bob, 'bob.example'))).toHaveProperty('transfer_tsig_key');
    expect(await get()).toMatchObject({ allow_transfer: ['192.0.2.0/24'], transfer_tsig_key: 'alice-xfr' });
  });

  it("a team's zone takes a key of a team member", async () => {
    const as = inMemory(t);
    expect((await as(alice, 'POST', '/teams', { name: 'ops' })).status).toBe(201);
    await join(as, 'ops', alice, { username: 'bob', token: bob }, 'admin');
    expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'team.example', team: 'ops' } })).status).toBe(201);
    const res = await put({ transfer_tsig_key: 'bob-xfr' }, bob, 'team.example');
    expect(res.status).toBe(200);
    expect((await res.json()).transfer_tsig_key).toBe('bob-xfr');
  });

  it('property: whatever key alice makes, bob can neither name it on his zone nor read or change her settings', async () => {
    expect((await t.request('POST', '/api/v1/domains', { token: bob, body: { name: 'bob.example' } })).status).toBe(201);
    await put({ also_notify: ['192.0.2.1:53'], transfer_tsig_key: 'alice-xfr' });
    const refusal = (await fieldsOf(await put({ transfer_tsig_key: 'never-made' }, bob, 'bob.example'))).transfer_tsig_key;
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,12}[a-z0-9])?$/);
    await fc.assert(
      fc.asyncProperty(fc.array(label, { minLength: 1, maxLength: 3 }), async (labels) => {
        const name = `${labels.join('.')}.k`;
        const made = await t.request('POST', '/api/v1/tsig-keys', { token: alice, body: { name } });
        expect([201, 409]).toContain(made.status);
        expect(await fieldsOf(await put({ transfer_tsig_key: name }, bob, 'bob.example'))).toEqual({ transfer_tsig_key: refusal });
        expect((await t.request('GET', '/api/v1/domains/example.com', { token: bob })).status).toBe(404);
        expect((await put({ transfer_tsig_key: null, allow_transfer: ['0.0.0.0/0'] }, bob)).status).toBe(404);
      }),
      { numRuns: 15 },
    );
    expect((await get(bob, 'bob.example')).transfer_tsig_key).toBeNull();
    expect(await get()).toMatchObject({ also_notify: ['192.0.2.1:53'], allow_transfer: [], transfer_tsig_key: 'alice-xfr' });
  });

  it("an editor of a team's zone may not change them (403)", async () => {
    const as = inMemory(t);
    expect((await as(alice, 'POST', '/teams', { name: 'web' })).status).toBe(201);
    await join(as, 'web', alice, { username: 'bob', token: bob }, 'editor');
    expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'web.example', team: 'web' } })).status).toBe(201);
    expect((await put({ allow_transfer: ['0.0.0.0/0'] }, bob, 'web.example')).status).toBe(403);
    expect((await get(alice, 'web.example')).allow_transfer).toEqual([]);
  });

  it('a token limited to names and types may not change them (403)', async () => {
    const token = (await (await t.request('POST', '/api/v1/tokens', { token: alice, body: { label: 'acme', scope: { zones: ['example.com'], names: ['_acme-challenge'], types: ['TXT'] } } })).json())
      .token;
    const res = await put({ allow_transfer: ['0.0.0.0/0'] }, token);
    expect(res.status).toBe(403);
    expect((await get()).allow_transfer).toEqual([]);
  });
});
