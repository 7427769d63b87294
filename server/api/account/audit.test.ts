/**
 * The account audit log: sign-ins (and failed ones) and sign-outs with
 * the browser's address and user agent, also for calls the dashboard forwards; tokens and TSIG
 * keys from the API and the PowerDNS API; who reads which events; the filters; pruning.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditInput } from '../../services/identity/audit';
import { dashboardSignIn } from '../../testing/dashboard-client';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let alice: string;
let bob: string;
let root: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.user('alice');
  bob = await t.user('bob');
  root = await t.user('root');
  await t.forge.users.update((await t.services.accounts.userByName('root')).id, { is_admin: true });
});
afterEach(() => t.close());

interface Event {
  id: number;
  created_at: string;
  kind: string;
  actor: { username: string | null; credential: string };
  address: string | null;
  user_agent: string | null;
  subject: string | null;
  team: string | null;
  detail: Record<string, unknown>;
}

async function audit(token: string, query = ''): Promise<Event[]> {
  const res = await t.request('GET', `/api/v1/audit${query}`, { token });
  expect(res.status).toBe(200);
  return res.json();
}
const kinds = (events: Event[]) => events.map((e) => `${e.kind} ${e.subject ?? '-'}`);

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

describe('sign-in, sign-out', () => {
  it('records each with the address and user agent, and shows the events to the user they concern', async () => {
    const browser = await dashboardSignIn(t, 'alice', 'password123', { address: '198.51.100.7', userAgent: FIREFOX });
    expect(browser.status).toBe(200);
    expect((await dashboardSignIn(t, 'ALICE', 'guessing', { address: '203.0.113.9', userAgent: 'curl/8' })).status).toBe(401);
    expect((await dashboardSignIn(t, 'nobody', 'guessing', { address: '203.0.113.9' })).status).toBe(401);
    expect((await browser.send('POST', '/bff/sign-out')).status).toBe(204);

    const mine = await audit(alice);
    expect(mine).toEqual([
      {
        id: expect.any(Number),
        created_at: expect.any(String),
        kind: 'sign-out',
        actor: { username: 'alice', credential: 'session' },
        address: '198.51.100.7',
        user_agent: FIREFOX,
        subject: 'alice',
        team: null,
        detail: { session_id: expect.any(Number) },
      },
      {
        id: expect.any(Number),
        created_at: expect.any(String),
        kind: 'sign-in-failed',
        actor: { username: null, credential: 'password' },
        address: '203.0.113.9',
        user_agent: 'curl/8',
        subject: 'alice',
        team: null,
        detail: {},
      },
      {
        id: expect.any(Number),
        created_at: expect.any(String),
        kind: 'sign-in',
        actor: { username: 'alice', credential: 'password' },
        address: '198.51.100.7',
        user_agent: FIREFOX,
        subject: 'alice',
        team: null,
        detail: { session_id: expect.any(Number) },
      },
    ]);
    // An attempt under an unknown name concerns no user: only an administrator reads it.
    expect(await audit(bob)).toEqual([]);
    expect(kinds(await audit(root))).toEqual(['sign-out alice', 'sign-in-failed nobody', 'sign-in-failed alice', 'sign-in alice']);
  });

  it("records a disabled user's attempt as a failed sign-in", async () => {
    await t.services.users.update({ username: '', credential: 'cli' }, 'alice', { disabled: true });
    expect((await dashboardSignIn(t, 'alice', 'password123')).status).toBe(401);
    expect(kinds(await audit(root, '?kind=sign-in-failed'))).toEqual(['sign-in-failed alice']);
  });
});

describe('calls the dashboard forwards', () => {
  it("carry the browser's address and user agent into the record, as credential session", async () => {
    const browser = await dashboardSignIn(t, 'alice', 'password123', { address: '2001:db8::7', userAgent: FIREFOX });
    expect((await browser.send('PUT', '/bff/api/account/password', { current_password: 'password123', new_password: 'a new passphrase' })).status).toBe(204);
    expect((await browser.send('POST', '/bff/api/tokens', { label: 'laptop' })).status).toBe(201);
    const [token, password] = await audit(alice);
    expect(password).toMatchObject({ kind: 'password-changed', actor: { username: 'alice', credential: 'session' }, address: '2001:db8::7', user_agent: FIREFOX, subject: 'alice' });
    expect(token).toMatchObject({ kind: 'token-created', actor: { username: 'alice', credential: 'session' }, address: '2001:db8::7', user_agent: FIREFOX });
  });

  it('are the only calls whose stated client address is believed', async () => {
    const res = await t.request('POST', '/api/v1/tokens', {
      token: alice,
      body: { label: 'x' },
      address: '192.0.2.1',
      headers: { 'x-zonedeck-client-address': '10.9.9.9', 'x-zonedeck-dashboard': 'guess' },
    });
    expect(res.status).toBe(201);
    const [event] = await audit(alice);
    expect(event).toMatchObject({ kind: 'token-created', address: '192.0.2.1', actor: { credential: expect.stringMatching(/^token:\d+$/) } });
  });
});

describe('tokens and TSIG keys', () => {
  it('records their creation and revocation on the API and the PowerDNS API, never a secret', async () => {
    const created = await t
      .request('POST', '/api/v1/tokens', { token: alice, body: { label: 'ci', scope: { read_only: true } }, address: '192.0.2.1', headers: { 'user-agent': 'terraform/1.9' } })
      .then((r) => r.json());
    expect((await t.request('DELETE', `/api/v1/tokens/${created.id}`, { token: alice })).status).toBe(200);
    const key = await t.request('POST', '/api/v1/tsig-keys', { token: alice, body: { name: 'acme' } }).then((r) => r.json());
    expect((await t.request('DELETE', '/api/v1/tsig-keys/acme', { token: alice })).status).toBe(200);
    const pdns = (method: string, path: string, body?: unknown) => t.request(method, `/api/v1/servers/localhost/tsigkeys${path}`, { token: null, body, headers: { 'x-api-key': alice } });
    const pdnsKey = await pdns('POST', '', { name: 'octodns', algorithm: 'hmac-sha256' }).then((r) => r.json());
    expect((await pdns('PUT', '/octodns.', { name: 'octodns2' })).status).toBe(200);
    expect((await pdns('DELETE', '/octodns2.')).status).toBe(204);

    const events = await audit(alice);
    expect(kinds(events)).toEqual([
      'tsig-key-deleted alice',
      'tsig-key-created alice',
      'tsig-key-created alice',
      'tsig-key-deleted alice',
      'tsig-key-created alice',
      'token-revoked alice',
      'token-created alice',
    ]);
    const aliceToken = events.at(-1)!.actor.credential;
    expect(aliceToken).toMatch(/^token:\d+$/);
    expect(events.every((e) => e.actor.username === 'alice' && e.actor.credential === aliceToken)).toBe(true);
    expect(events.at(-1)).toMatchObject({ address: '192.0.2.1', user_agent: 'terraform/1.9', detail: { token_id: created.id, label: 'ci', expires_at: null, scope: { read_only: true } } });
    expect(events[0]!.detail).toEqual({ name: 'octodns2', algorithm: 'hmac-sha256', scope: {} });
    expect(events[1]!.detail).toEqual({ name: 'octodns2', algorithm: 'hmac-sha256', scope: {}, replaces: 'octodns', secret_changed: false });
    const text = JSON.stringify(events);
    for (const secret of [created.token, key.secret, pdnsKey.key]) expect(text).not.toContain(secret);
  });
});

describe('who reads which events', () => {
  it('a user: their own; a team owner or admin: the whole team; an editor: their own of the team; an administrator: all', async () => {
    const store = t.forge;
    const at = new Date().toISOString();
    await t.user('carol');
    const [a, b, r, carol] = await Promise.all(['alice', 'bob', 'root', 'carol'].map((n) => t.services.accounts.userByName(n)));
    const team = await store.teams.insert({ name: 'ops', created_at: at });
    await store.teams.setMember(team.id, a!.id, 'owner', at);
    await store.teams.setMember(team.id, b!.id, 'editor', at);
    const record = (e: Omit<AuditInput, 'actor'> & { by: { id: number; username: string } }) =>
      t.services.audit.record({ ...e, actor: { userId: e.by.id, username: e.by.username, credential: 'token:1' } });
    await record({ kind: 'member-added', by: a!, subject: { id: b!.id, username: 'bob' }, team: { id: team.id, name: 'ops' }, detail: { role: 'editor' } });
    await record({ kind: 'member-added', by: a!, subject: { id: carol!.id, username: 'carol' }, team: { id: team.id, name: 'ops' }, detail: { role: 'viewer' } });
    await record({ kind: 'member-removed', by: a!, subject: { id: carol!.id, username: 'carol' }, team: { id: team.id, name: 'ops' } });
    await record({ kind: 'password-changed', by: r!, subject: { id: r!.id, username: 'root' } });

    const owner = await audit(alice);
    expect(kinds(owner)).toEqual(['member-removed carol', 'member-added carol', 'member-added bob']);
    expect(owner[0]!.team).toBe('ops');
    expect(kinds(await audit(bob))).toEqual(['member-added bob']);
    expect(kinds(await audit(bob, '?team=ops'))).toEqual(['member-added bob']);
    expect(await audit(bob, '?team=ops&username=carol')).toEqual([]);
    expect(kinds(await audit(alice, '?team=ops&username=carol'))).toEqual(['member-removed carol', 'member-added carol']);
    expect(await audit(alice, '?team=nosuchteam')).toEqual([]);
    expect(kinds(await audit(root))).toEqual(['password-changed root', 'member-removed carol', 'member-added carol', 'member-added bob']);
    // Promoted to admin of the team, bob reads all of it.
    await store.teams.setMember(team.id, b!.id, 'admin', at);
    expect((await audit(bob)).length).toBe(3);
    // A filter never widens: bob asking for root's events sees none of them.
    expect(await audit(bob, '?username=root')).toEqual([]);
  });
});

describe('where team events came from', () => {
  it("shows an event's address and user agent to the team's owners and admins, to whoever did it and to administrators; editors and viewers read the event without them", async () => {
    const [carol, dave, erin] = [await t.user('carol'), await t.user('dave'), await t.user('erin')];
    const from = { address: '198.51.100.7', headers: { 'user-agent': FIREFOX } };
    expect((await t.request('POST', '/api/v1/teams', { token: alice, body: { name: 'ops' }, ...from })).status).toBe(201);
    const team = (await t.services.store.teams.byName('ops'))!;
    const at = new Date().toISOString();
    for (const [name, role] of [
      ['bob', 'editor'],
      ['carol', 'editor'],
      ['dave', 'admin'],
      ['erin', 'viewer'],
    ] as const) {
      await t.forge.teams.setMember(team.id, (await t.services.accounts.userByName(name)).id, role, at);
    }
    expect((await t.request('POST', '/api/v1/domains', { token: alice, body: { name: 'ops.example', team: 'ops' }, ...from })).status).toBe(201);
    expect((await t.request('PUT', '/api/v1/teams/ops/members/carol', { token: alice, body: { role: 'viewer' }, ...from })).status).toBe(200);
    // Erin leaves: her own event, from her own address.
    expect((await t.request('DELETE', '/api/v1/teams/ops/members/erin', { token: erin, address: '203.0.113.5', headers: { 'user-agent': 'curl/8' } })).status).toBe(204);

    const roleChange = (events: Event[]) => events.find((e) => e.kind === 'member-role-changed')!;
    const left = (events: Event[]) => events.find((e) => e.kind === 'member-removed')!;
    const where = (e: Event) => [e.address, e.user_agent];
    const teamEvents = async (token: string): Promise<Event[]> => {
      const res = await t.request('GET', '/api/v1/domains/ops.example/team-events', { token });
      expect(res.status).toBe(200);
      return res.json();
    };
    // The owner, an admin of the team, and an administrator of the service (who reads no team zone's History): where each came from.
    for (const reader of [alice, dave, root]) {
      expect(where(roleChange(await audit(reader, '?team=ops')))).toEqual(['198.51.100.7', FIREFOX]);
      expect(where(left(await audit(reader, '?team=ops')))).toEqual(['203.0.113.5', 'curl/8']);
      if (reader !== root) expect(where(roleChange(await teamEvents(reader)))).toEqual(['198.51.100.7', FIREFOX]);
    }
    // An editor and a viewer: the zone's History shows what happened, not where the owner works from.
    for (const reader of [bob, carol]) {
      const events = await teamEvents(reader);
      expect(roleChange(events)).toMatchObject({ actor: { username: 'alice' }, subject: 'carol', detail: { from: 'editor', to: 'viewer' }, address: null, user_agent: null });
      expect(where(left(events))).toEqual([null, null]);
    }
    // The viewer whose role changed reads the event in her own log, without the owner's address.
    expect(roleChange(await audit(carol))).toMatchObject({ subject: 'carol', address: null, user_agent: null });
    expect(roleChange(await audit(carol, '?team=ops'))).toMatchObject({ subject: 'carol', address: null, user_agent: null });
    // Her own act, Erin reads with her own address.
    expect(where(left(await audit(erin)))).toEqual(['203.0.113.5', 'curl/8']);
    // Nothing is lost from the log itself.
    const stored = await t.services.store.audit.page({ teamIds: [team.id], kinds: ['member-role-changed'] }, { offset: 0, limit: 5 });
    expect(stored.rows.map((e) => [e.address, e.user_agent])).toEqual([['198.51.100.7', FIREFOX]]);
  });
});

describe('filters', () => {
  it('narrow by kind, username and time, newest first, paginated', async () => {
    const actor = { username: '', credential: 'cli' };
    const a = await t.services.accounts.userByName('alice');
    for (const kind of ['token-created', 'token-revoked', 'token-created'] as const) await t.services.audit.record({ kind, actor, subject: { id: a.id, username: 'alice' } });
    const all = await audit(root);
    expect(kinds(all)).toEqual(['token-created alice', 'token-revoked alice', 'token-created alice']);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((x, y) => y - x));
    expect(all[0]!.actor).toEqual({ username: null, credential: 'cli' });

    expect(kinds(await audit(root, '?kind=token-revoked'))).toEqual(['token-revoked alice']);
    expect((await audit(root, '?username=ALICE')).length).toBe(3);
    expect(await audit(root, '?username=bob')).toEqual([]);
    expect((await audit(root, '?since=2000-01-01&until=2999-12-31T00:00:00Z')).length).toBe(3);
    expect(await audit(root, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect(await audit(root, '?until=2000-01-01T00:00:00%2B02:00')).toEqual([]);

    const page = await t.request('GET', '/api/v1/audit?per_page=2&page=2', { token: root });
    expect(page.headers.get('x-total-count')).toBe('3');
    expect((await page.json()).map((e: Event) => e.id)).toEqual([all[2]!.id]);
  });

  it('answer 400 naming the bad parameter', async () => {
    const cases: Array<[string, string]> = [
      ['?kind=everything', 'kind'],
      ['?since=yesterday', 'since'],
      ['?until=2026-13-45T99:00:00Z', 'until'],
      [`?since=${'2'.repeat(50)}`, 'since'],
      [`?username=${'u'.repeat(65)}`, 'username'],
      [`?team=${'t'.repeat(65)}`, 'team'],
      ['?per_page=501', 'per_page'],
    ];
    for (const [query, field] of cases) {
      const res = await t.request('GET', `/api/v1/audit${query}`, { token: alice });
      expect(res.status, query).toBe(400);
      expect(Object.keys((await res.json()).error.fields), query).toEqual([field]);
    }
  });
});

describe('retention', () => {
  it('prune removes the events older than HISTORY_DAYS and keeps the rest', async () => {
    const a = await t.services.accounts.userByName('alice');
    const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
    const base = {
      kind: 'sign-in',
      actor_user_id: a.id,
      actor_username: 'alice',
      credential: 'password',
      address: '',
      user_agent: '',
      subject_user_id: a.id,
      subject_username: 'alice',
      team_id: null,
      team_name: '',
      detail: {},
    };
    await t.forge.audit.insert({ ...base, created_at: old });
    await t.forge.audit.insert({ ...base, created_at: new Date(Date.now() - 10 * 86_400_000).toISOString() });
    expect((await audit(alice)).length).toBe(2);
    expect(await t.services.audit.prune(365)).toBe(1);
    const left = await audit(alice);
    expect(left.length).toBe(1);
    expect(left[0]!.created_at).not.toBe(old);
  });
});
