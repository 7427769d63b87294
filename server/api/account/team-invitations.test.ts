/**
 * Team membership is an invitation the invitee accepts: an owner's invitation grants nothing until
 * the user accepts it; the user may decline and the owner cancel; inviting tells the inviter
 * nothing about which usernames exist; only the account itself (no scoped token) answers an
 * invitation; and the audit log keeps each step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
const tok: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const p of ['olivia', 'adam', 'bob', 'carol', 'dave', 'erin']) tok[p] = await t.user(p);
  expect((await t.request('POST', '/api/v1/teams', { token: tok.olivia, body: { name: 'crew' } })).status).toBe(201);
  expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: 'crew.test', team: 'crew' } })).status).toBe(201);
});
afterAll(() => t.close());

const api = (who: string, method: string, path: string, body?: unknown) => t.request(method, `/api/v1${path}`, { token: tok[who] ?? who, body });
const invite = (username: string, role = 'editor', by = 'olivia') => api(by, 'POST', '/teams/crew/members', { username, role });
const json = async (res: Response | Promise<Response>, status = 200) => {
  const r = await res;
  expect(r.status, await r.clone().text()).toBe(status);
  return r.json();
};
const members = async () => (await json(api('olivia', 'GET', '/teams/crew/members'))).map((m: { username: string; role: string }) => `${m.username}:${m.role}`);
const pending = async () => (await json(api('olivia', 'GET', '/teams/crew/invitations'))).map((i: { username: string; role: string }) => `${i.username}:${i.role}`);

describe('an invitation', () => {
  it('grants nothing until the user accepts it; accepted, the role applies at once, and later role changes need no acceptance', async () => {
    const invited = await json(invite('bob', 'editor'), 201);
    expect(invited).toEqual({ username: 'bob', role: 'editor', invited_by: 'olivia', created_at: expect.any(String) });
    // Pending: bob is no member, reaches no zone of the team, and sees the invitation.
    expect(await members()).toEqual(['olivia:owner']);
    expect(await pending()).toEqual(['bob:editor']);
    expect((await api('bob', 'GET', '/domains/crew.test')).status).toBe(404);
    expect((await api('bob', 'GET', '/teams/crew')).status).toBe(404);
    expect(await json(api('bob', 'GET', '/teams'))).toEqual([]);
    expect(await json(api('bob', 'GET', '/invitations'))).toEqual([{ team: 'crew', role: 'editor', invited_by: 'olivia', created_at: invited.created_at }]);
    // Nobody else sees bob's invitation as theirs, nor can accept it.
    expect(await json(api('carol', 'GET', '/invitations'))).toEqual([]);
    expect((await api('carol', 'POST', '/invitations/crew/accept')).status).toBe(404);

    const joined = await json(api('bob', 'POST', '/invitations/crew/accept'));
    expect(joined).toEqual({ name: 'crew', role: 'editor', members: 2, zones: 1, created_at: expect.any(String) });
    expect(await members()).toEqual(['bob:editor', 'olivia:owner']);
    expect(await pending()).toEqual([]);
    expect(await json(api('bob', 'GET', '/invitations'))).toEqual([]);
    expect(await json(api('bob', 'GET', '/domains/crew.test'))).toMatchObject({ name: 'crew.test', team: 'crew', role: 'editor' });
    expect((await api('bob', 'POST', '/domains/crew.test/records', { name: 'www', record_type: 'A', content: '192.0.2.1' })).status).toBe(200);
    // Accepted once: there is nothing more to accept.
    expect((await api('bob', 'POST', '/invitations/crew/accept')).status).toBe(404);
    // A member's role changes without asking them.
    expect(await json(api('olivia', 'PUT', '/teams/crew/members/bob', { role: 'viewer' }))).toMatchObject({ username: 'bob', role: 'viewer' });
    expect(await json(api('bob', 'GET', '/domains/crew.test'))).toMatchObject({ role: 'viewer' });
    // A member is not invited again.
    expect((await json(invite('bob'), 409)).error.fields).toEqual({ username: 'is already a member' });
  });

  it('may be declined by the user, and cancelled by an owner; either way nothing is granted', async () => {
    await json(invite('carol', 'admin'), 201);
    expect((await api('carol', 'DELETE', '/invitations/crew')).status).toBe(204);
    expect(await pending()).toEqual([]);
    expect((await api('carol', 'POST', '/invitations/crew/accept')).status).toBe(404);
    expect((await api('carol', 'GET', '/domains/crew.test')).status).toBe(404);

    await json(invite('dave', 'viewer'), 201);
    // Team admins see the invitations, only owners cancel them; editors, viewers and strangers do neither.
    await json(invite('adam', 'admin'), 201);
    await json(api('adam', 'POST', '/invitations/crew/accept'));
    expect(await json(api('adam', 'GET', '/teams/crew/invitations'))).toEqual([expect.objectContaining({ username: 'dave', role: 'viewer' })]);
    expect((await api('adam', 'DELETE', '/teams/crew/invitations/dave')).status).toBe(403);
    expect((await api('bob', 'GET', '/teams/crew/invitations')).status).toBe(403);
    expect((await api('erin', 'GET', '/teams/crew/invitations')).status).toBe(404);
    expect((await api('erin', 'DELETE', '/teams/crew/invitations/dave')).status).toBe(404);
    expect((await api('olivia', 'DELETE', '/teams/crew/invitations/dave')).status).toBe(204);
    expect((await api('olivia', 'DELETE', '/teams/crew/invitations/dave')).status).toBe(404);
    expect(await json(api('dave', 'GET', '/invitations'))).toEqual([]);
    expect((await api('dave', 'POST', '/invitations/crew/accept')).status).toBe(404);
    expect(await members()).toEqual(['adam:admin', 'bob:viewer', 'olivia:owner']);
  });

  it('is answered only by the account itself: a token with a scope reads it but cannot accept or decline it', async () => {
    await json(invite('erin', 'editor'), 201);
    for (const scope of [{ read_only: true }, { zones: ['crew.test'] }, { types: ['TXT'] }]) {
      const { token } = await json(api('erin', 'POST', '/tokens', { label: 'scoped', scope }), 201);
      expect(await json(api(token, 'GET', '/invitations'))).toEqual([expect.objectContaining({ team: 'crew' })]);
      const accept = await api(token, 'POST', '/invitations/crew/accept');
      expect(accept.status, JSON.stringify(scope)).toBe(403);
      expect((await api(token, 'DELETE', '/invitations/crew')).status).toBe(403);
    }
    expect(await pending()).toEqual(['erin:editor']);
    expect((await api('erin', 'GET', '/domains/crew.test')).status).toBe(404);
    await json(api('erin', 'POST', '/invitations/crew/accept'));
  });
});

describe('inviting tells nothing about which usernames exist', () => {
  it('answers a name nobody has exactly as a user, lists both alike, and the invitation of the unknown name never matches', async () => {
    await t.user('frank');
    const known = await invite('frank', 'viewer');
    const unknown = await invite('ghost', 'viewer');
    expect([known.status, unknown.status]).toEqual([201, 201]);
    const [k, u] = [await known.json(), await unknown.json()];
    expect(Object.keys(u).sort()).toEqual(Object.keys(k).sort());
    expect({ ...u, username: 'frank', created_at: k.created_at }).toEqual(k);
    expect(await pending()).toEqual(['frank:viewer', 'ghost:viewer']);
    // Twice is refused alike.
    const again = [await invite('frank'), await invite('ghost')];
    expect(again.map((r) => r.status)).toEqual([409, 409]);
    const [ka, ua] = await Promise.all(again.map((r) => r.json()));
    expect(ua.error.message.replace('ghost', 'frank')).toBe(ka.error.message);
    expect(ua.error.fields).toEqual(ka.error.fields);
    // The team's audit log shows both invitations alike, too.
    const invited = (await json(api('olivia', 'GET', '/audit?team=crew&kind=member-invited'))).filter((e: { subject: string }) => ['frank', 'ghost'].includes(e.subject));
    expect(invited.map((e: { subject: string; detail: unknown }) => [e.subject, e.detail])).toEqual([
      ['ghost', { role: 'viewer' }],
      ['frank', { role: 'viewer' }],
    ]);
    // A user created afterwards under that name is not the one invited: no invitation to see or accept.
    const ghost = await t.user('ghost');
    expect(await json(api(ghost, 'GET', '/invitations'))).toEqual([]);
    expect((await api(ghost, 'POST', '/invitations/crew/accept')).status).toBe(404);
    expect((await api(ghost, 'GET', '/domains/crew.test')).status).toBe(404);
    // What no username can be is a mistake the inviter is told of (no user could have it).
    for (const username of ['', 'Not A Name', 'a/b', 'x'.repeat(65)]) {
      const res = await invite(username);
      expect(res.status, username).toBe(400);
      expect(Object.keys((await res.json()).error.fields), username).toEqual(['username']);
    }
    for (const who of ['frank', 'ghost']) expect((await api('olivia', 'DELETE', `/teams/crew/invitations/${who}`)).status).toBe(204);
  });

  it('holds at most 100 pending invitations per team', async () => {
    expect((await t.request('POST', '/api/v1/teams', { token: tok.dave, body: { name: 'busy' } })).status).toBe(201);
    for (let i = 0; i < 100; i++) expect((await api('dave', 'POST', '/teams/busy/members', { username: `nobody-${i}`, role: 'viewer' })).status).toBe(201);
    const over = await api('dave', 'POST', '/teams/busy/members', { username: 'bob', role: 'viewer' });
    expect(over.status).toBe(409);
    expect((await over.json()).error.message).toMatch(/100 pending invitations/);
    expect(await json(api('bob', 'GET', '/invitations'))).toEqual([]);
  });
});

describe('the audit log', () => {
  it('keeps every invitation, acceptance, refusal and cancellation, and shows the invitee theirs', async () => {
    const events = await json(api('olivia', 'GET', '/audit?team=crew&per_page=100'));
    const line = (e: { kind: string; actor: { username: string }; subject: string; detail: { role?: string } }) => `${e.kind} ${e.actor.username}→${e.subject} ${e.detail.role ?? ''}`.trim();
    const lines = events.map(line).filter((l: string) => !/frank|ghost/.test(l));
    expect(lines.reverse()).toEqual([
      'team-created olivia→null',
      'member-invited olivia→bob editor',
      'invitation-accepted bob→bob editor',
      'member-role-changed olivia→bob',
      'member-invited olivia→carol admin',
      'invitation-declined carol→carol admin',
      'member-invited olivia→dave viewer',
      'member-invited olivia→adam admin',
      'invitation-accepted adam→adam admin',
      'invitation-cancelled olivia→dave viewer',
      'member-invited olivia→erin editor',
      'invitation-accepted erin→erin editor',
    ]);
    // Carol reads her invitation and her refusal in her own log.
    expect((await json(api('carol', 'GET', '/audit'))).map(line)).toEqual(['invitation-declined carol→carol admin', 'member-invited olivia→carol admin']);
  });
});
