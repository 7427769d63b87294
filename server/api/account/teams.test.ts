/**
 * Teams. A zone owned by a team is reached by its members with their role, judged by
 * the same machinery as scopes: the role matrix (owner, admin, editor, viewer, non-member) × every
 * write path of the API and the PowerDNS API, each verdict as the role says, each refusal 403 for a
 * member or 404 for a stranger, with nothing applied. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemory, join } from '../../testing/team-members';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
const tok: Record<string, string> = {};
const PEOPLE = ['olivia', 'adam', 'edith', 'victor', 'stranger', 'solo'] as const;

beforeAll(async () => {
  t = await createTestApp();
  for (const p of PEOPLE) tok[p] = await t.user(p);
  expect((await t.request('POST', '/api/v1/teams', { token: tok.olivia, body: { name: 'Crew' } })).status).toBe(201);
  for (const [who, role] of [
    ['adam', 'admin'],
    ['edith', 'editor'],
    ['victor', 'viewer'],
  ] as const)
    await join(inMemory(t), 'crew', tok.olivia!, { username: who, token: tok[who]! }, role);
});
afterAll(() => t.close());

const pdns = (token: string, method: string, path: string, body?: unknown) => t.request(method, `/api/v1/servers/localhost/zones${path}`, { token: null, body, headers: { 'x-api-key': token } });

/** What a user would check after a refused write: the zone is there, at the same serial, with the same records. */
async function snapshot(zone: string) {
  const d = await t.request('GET', `/api/v1/domains/${zone}`, { token: tok.olivia });
  const r = await t.request('GET', `/api/v1/domains/${zone}/records?per_page=500`, { token: tok.olivia });
  return { domain: await d.json(), records: await r.json() };
}

describe('teams and members', () => {
  it('lists the team with the caller role, its members, and hides it from strangers exactly like a missing team', async () => {
    const mine = await (await t.request('GET', '/api/v1/teams', { token: tok.edith })).json();
    expect(mine).toEqual([{ name: 'crew', role: 'editor', members: 4, zones: expect.any(Number), created_at: expect.any(String) }]);
    const members = await (await t.request('GET', '/api/v1/teams/crew/members', { token: tok.victor })).json();
    expect(members.map((m: { username: string; role: string }) => `${m.username}:${m.role}`)).toEqual(['adam:admin', 'edith:editor', 'olivia:owner', 'victor:viewer']);
    const hidden = await t.request('GET', '/api/v1/teams/crew', { token: tok.stranger });
    const missing = await t.request('GET', '/api/v1/teams/nope', { token: tok.stranger });
    expect([hidden.status, missing.status]).toEqual([404, 404]);
    expect(await (await t.request('GET', '/api/v1/teams', { token: tok.stranger })).json()).toEqual([]);
  });

  it('refuses oddly spelled team names naming the field, and creates nothing', async () => {
    for (const name of ['ops..', 'ops.', '.ops', 'o..ps', 'оps', 'x'.repeat(65)]) {
      const res = await t.request('POST', '/api/v1/teams', { token: tok.solo, body: { name } });
      expect(res.status, name).toBe(400);
      expect((await res.json()).error.fields, name).toHaveProperty('name');
    }
    expect(await (await t.request('GET', '/api/v1/teams', { token: tok.solo })).json()).toEqual([]);
  });

  it('lets only an owner invite and manage members; the last owner can neither leave nor step down', async () => {
    const byAdmin = await t.request('POST', '/api/v1/teams/crew/members', { token: tok.adam, body: { username: 'solo', role: 'viewer' } });
    expect(byAdmin.status).toBe(403);
    expect((await byAdmin.json()).error.message).toMatch(/only an owner of team crew/);
    const leave = await t.request('DELETE', '/api/v1/teams/crew/members/olivia', { token: tok.olivia });
    expect(leave.status).toBe(409);
    const demote = await t.request('PUT', '/api/v1/teams/crew/members/olivia', { token: tok.olivia, body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    const bad = await t.request('POST', '/api/v1/teams/crew/members', { token: tok.olivia, body: { username: 'solo', role: 'superuser' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toHaveProperty('role');
    const members = await (await t.request('GET', '/api/v1/teams/crew/members', { token: tok.olivia })).json();
    expect(members).toHaveLength(4);
  });

  it('a user without teams sees the the domain view of the interface specification, with no team or role field', async () => {
    expect((await t.request('POST', '/api/v1/domains', { token: tok.solo, body: { name: 'solo.test' } })).status).toBe(201);
    const d = await (await t.request('GET', '/api/v1/domains/solo.test', { token: tok.solo })).json();
    expect(d).not.toHaveProperty('team');
    expect(d).not.toHaveProperty('role');
  });

  it('creates a zone for the team only as its owner or admin, and members list it with team and role', async () => {
    const byEditor = await t.request('POST', '/api/v1/domains', { token: tok.edith, body: { name: 'by-editor.test', team: 'crew' } });
    expect(byEditor.status).toBe(403);
    const byStranger = await t.request('POST', '/api/v1/domains', { token: tok.stranger, body: { name: 'by-stranger.test', team: 'crew' } });
    expect(byStranger.status).toBe(400);
    expect((await byStranger.json()).error.fields).toEqual({ team: 'is not a team you belong to' });
    const ok = await t.request('POST', '/api/v1/domains', { token: tok.adam, body: { name: 'shared.test', team: 'crew' } });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ name: 'shared.test', team: 'crew', role: 'admin' });
    const seen = await (await t.request('GET', '/api/v1/domains?search=shared', { token: tok.victor })).json();
    expect(seen).toEqual([expect.objectContaining({ name: 'shared.test', team: 'crew', role: 'viewer' })]);
    expect(await (await t.request('GET', '/api/v1/domains?search=shared', { token: tok.stranger })).json()).toEqual([]);
    for (const p of ['by-editor.test', 'by-stranger.test']) expect(await t.services.store.domains.byName(p)).toBeUndefined();
  });
});

describe('the role matrix: every write path, each role as it says, nothing applied on refusal', () => {
  type Write = { path: string; zoneLevel?: 'settings' | 'delete'; run: (token: string, zone: string, ids: { record: number; change: number }) => Promise<Response> };
  const writes: Write[] = [
    { path: 'record POST', run: (k, z) => t.request('POST', `/api/v1/domains/${z}/records`, { token: k, body: { name: 'new', record_type: 'A', content: '192.0.2.9', ttl: '300' } }) },
    { path: 'record PUT', run: (k, z, i) => t.request('PUT', `/api/v1/domains/${z}/records/${i.record}`, { token: k, body: { content: '192.0.2.10' } }) },
    { path: 'record DELETE', run: (k, z, i) => t.request('DELETE', `/api/v1/domains/${z}/records/${i.record}`, { token: k }) },
    {
      path: 'PATCH rrsets',
      run: (k, z) => t.request('PATCH', `/api/v1/domains/${z}/rrsets`, { token: k, body: { rrsets: [{ name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.11'] }] } }),
    },
    { path: 'revert', run: (k, z, i) => t.request('POST', `/api/v1/domains/${z}/changes/${i.change}/revert`, { token: k }) },
    { path: 'import merge', run: (k, z) => t.request('POST', `/api/v1/domains/${z}/zone?mode=merge`, { token: k, raw: `www.${z}. 300 IN A 192.0.2.12\n`, headers: { 'content-type': 'text/dns' } }) },
    {
      path: 'PowerDNS PATCH',
      run: (k, z) => pdns(k, 'PATCH', `/${z}.`, { rrsets: [{ name: `www.${z}.`, type: 'A', ttl: 300, changetype: 'REPLACE', records: [{ content: '192.0.2.14', disabled: false }] }] }),
    },
    { path: 'PUT zone', zoneLevel: 'settings', run: (k, z) => t.request('PUT', `/api/v1/domains/${z}`, { token: k, body: { refresh_interval: 7200 } }) },
    { path: 'DNSSEC on', zoneLevel: 'settings', run: (k, z) => t.request('PUT', `/api/v1/domains/${z}`, { token: k, body: { dnssec_enabled: true } }) },
    { path: 'PowerDNS PUT', zoneLevel: 'settings', run: (k, z) => pdns(k, 'PUT', `/${z}.`, { dnssec: true }) },
    { path: 'PowerDNS cryptokeys POST', zoneLevel: 'settings', run: (k, z) => pdns(k, 'POST', `/${z}./cryptokeys`, { keytype: 'csk', active: true }) },
    { path: 'DELETE zone', zoneLevel: 'delete', run: (k, z) => t.request('DELETE', `/api/v1/domains/${z}`, { token: k }) },
    { path: 'PowerDNS DELETE', zoneLevel: 'delete', run: (k, z) => pdns(k, 'DELETE', `/${z}.`) },
  ];
  const people = { owner: 'olivia', admin: 'adam', editor: 'edith', viewer: 'victor', 'non-member': 'stranger' } as const;

  /** What the role allows: 'ok', 403 or 404. */
  function verdict(role: keyof typeof people, w: Write): 'ok' | 403 | 404 {
    if (role === 'non-member') return 404;
    if (role === 'viewer') return 403;
    if (w.zoneLevel === 'delete') return role === 'owner' ? 'ok' : 403;
    if (w.zoneLevel === 'settings') return role === 'editor' ? 403 : 'ok';
    return 'ok';
  }

  for (const role of Object.keys(people) as Array<keyof typeof people>) {
    it(`${role}: ${writes.map((w) => `${w.path} ${verdict(role, w)}`).join(', ')}`, async () => {
      const verdicts: Record<string, string | number> = {};
      for (const [i, w] of writes.entries()) {
        // A zone of the team per write: each write starts from the same zone.
        const zone = `m${i}-${role}.test`;
        expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: zone, team: 'crew' } })).status).toBe(201);
        const rec = await (await t.request('POST', `/api/v1/domains/${zone}/records`, { token: tok.olivia, body: { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' } })).json();
        const changes = await (await t.request('GET', `/api/v1/domains/${zone}/changes`, { token: tok.olivia })).json();
        const before = await snapshot(zone);
        const res = await w.run(tok[people[role]]!, zone, { record: rec.id, change: changes[0].id });
        const expected = verdict(role, w);
        verdicts[w.path] = res.status < 300 ? 'ok' : res.status;
        if (expected !== 'ok') expect(await snapshot(zone), `${w.path}: nothing applied`).toEqual(before);
      }
      expect(verdicts).toEqual(Object.fromEntries(writes.map((w) => [w.path, verdict(role, w)])));
    });
  }

  it('roles compose with scopes: an editor token limited to TXT cannot write A, and a read-only owner token writes nothing', async () => {
    const zone = 'compose.test';
    expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: zone, team: 'crew' } })).status).toBe(201);
    const txtOnly = (await (await t.request('POST', '/api/v1/tokens', { token: tok.edith, body: { label: 'txt', scope: { types: ['TXT'] } } })).json()).token;
    const a = await t.request('POST', `/api/v1/domains/${zone}/records`, { token: txtOnly, body: { name: 'x', record_type: 'A', content: '192.0.2.1' } });
    const txt = await t.request('POST', `/api/v1/domains/${zone}/records`, { token: txtOnly, body: { name: 'x', record_type: 'TXT', content: 'ok' } });
    expect([a.status, txt.status]).toEqual([403, 200]);
    const ro = (await (await t.request('POST', '/api/v1/tokens', { token: tok.olivia, body: { label: 'ro', scope: { read_only: true } } })).json()).token;
    expect((await t.request('POST', `/api/v1/domains/${zone}/records`, { token: ro, body: { name: 'y', record_type: 'TXT', content: 'no' } })).status).toBe(403);
    const refused = await t.request('PUT', `/api/v1/domains/${zone}`, { token: tok.edith, body: { minimum_ttl: 60 } });
    expect((await refused.json()).error.message).toMatch(/your role in team crew is editor/);
    // A revert that would undo a settings change is a settings change: the change set refuses it for an editor.
    expect((await t.request('PUT', `/api/v1/domains/${zone}`, { token: tok.adam, body: { minimum_ttl: 120 } })).status).toBe(200);
    const [settingsChange] = await (await t.request('GET', `/api/v1/domains/${zone}/changes`, { token: tok.edith })).json();
    const revert = await t.request('POST', `/api/v1/domains/${zone}/changes/${settingsChange.id}/revert`, { token: tok.edith });
    expect(revert.status).toBe(403);
    expect((await revert.json()).error.message).toMatch(/editor, which changes records only: not the zone's settings \(minimum_ttl\)/);
    expect((await (await t.request('GET', `/api/v1/domains/${zone}`, { token: tok.edith })).json()).minimum_ttl).toBe(120);
  });
});

describe('moving a zone between a user and a team', () => {
  it('moves with its history, by an owner of both sides only, and back', async () => {
    const zone = 'moving.test';
    expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: zone } })).status).toBe(201);
    await t.request('POST', `/api/v1/domains/${zone}/records`, { token: tok.olivia, body: { name: 'www', record_type: 'A', content: '192.0.2.1' } });
    const history = await (await t.request('GET', `/api/v1/domains/${zone}/changes`, { token: tok.olivia })).json();
    expect((await t.request('GET', `/api/v1/domains/${zone}`, { token: tok.edith })).status).toBe(404);

    const moved = await t.request('PUT', `/api/v1/domains/${zone}/owner`, { token: tok.olivia, body: { team: 'crew' } });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ name: zone, team: 'crew' });
    // The members reach it now, with its history.
    expect(await (await t.request('GET', `/api/v1/domains/${zone}/changes`, { token: tok.edith })).json()).toEqual(history);
    // An admin of the team is not an owner: the zone stays.
    expect((await t.request('PUT', `/api/v1/domains/${zone}/owner`, { token: tok.adam, body: { team: null } })).status).toBe(403);
    const back = await t.request('PUT', `/api/v1/domains/${zone}/owner`, { token: tok.olivia, body: { team: null } });
    expect(await back.json()).toEqual({ name: zone, team: null });
    expect((await t.request('GET', `/api/v1/domains/${zone}`, { token: tok.edith })).status).toBe(404);
    const events = await t.services.store.audit.page({ all: true, kind: 'zone-moved' }, { offset: 0, limit: 10 });
    expect(events.rows.map((e) => e.detail)).toEqual([
      { zone, from: 'crew', to: 'olivia' },
      { zone, from: 'olivia', to: 'crew' },
    ]);
  });

  it('refuses a move that would nest zones across accounts, as creation does, and changes nothing', async () => {
    const create = async (name: string, team?: string) => expect((await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name, ...(team ? { team } : {}) } })).status).toBe(201);
    const owner = async (name: string) => (await (await t.request('GET', `/api/v1/domains/${name}`, { token: tok.olivia })).json()).team ?? 'olivia';
    const move = (name: string, team: string | null) => t.request('PUT', `/api/v1/domains/${name}/owner`, { token: tok.olivia, body: { team } });
    const movedBefore = (await t.services.store.audit.page({ all: true, kind: 'zone-moved' }, { offset: 0, limit: 50 })).total;
    // Out of the team: sub.out.test would be olivia's alone inside crew's out.test, whose admins could delegate it away.
    await create('out.test', 'crew');
    await create('sub.out.test', 'crew');
    // Into the team, the child or the parent: one of them would stay olivia's alone.
    await create('in.test');
    await create('sub.in.test');
    const refusals = [await move('sub.out.test', null), await move('sub.in.test', 'crew'), await move('in.test', 'crew')];
    expect(refusals.map((r) => r.status)).toEqual([409, 409, 409]);
    const [out, inChild, inParent] = await Promise.all(refusals.map((r) => r.json()));
    expect(out.error.message).toBe('sub.out.test lies inside out.test, which another account manages: moved to you alone, the two would be nested across accounts');
    expect(out.error.fields).toEqual({ team: 'the domain lies inside a domain of another owner' });
    expect(inChild.error.message).toBe('sub.in.test lies inside in.test, which is yours alone: moved to team crew, the two would be nested across accounts');
    expect(inParent.error.message).toBe('in.test contains sub.in.test, which is yours alone: moved to team crew, the two would be nested across accounts');
    expect(await Promise.all(['out.test', 'sub.out.test', 'in.test', 'sub.in.test'].map(owner))).toEqual(['crew', 'crew', 'olivia', 'olivia']);
    expect((await t.services.store.audit.page({ all: true, kind: 'zone-moved' }, { offset: 0, limit: 50 })).total).toBe(movedBefore);
    // Creation gives the same verdict on the same names.
    const created = await t.request('POST', '/api/v1/domains', { token: tok.olivia, body: { name: 'x.sub.out.test' } });
    expect(created.status).toBe(409);
  });

  it('a team that owns zones cannot be deleted; an empty one can, by its owner', async () => {
    const busy = await t.request('DELETE', '/api/v1/teams/crew', { token: tok.olivia });
    expect(busy.status).toBe(409);
    expect((await t.request('POST', '/api/v1/teams', { token: tok.solo, body: { name: 'empty' } })).status).toBe(201);
    expect((await t.request('DELETE', '/api/v1/teams/empty', { token: tok.solo })).status).toBe(204);
    expect((await t.request('GET', '/api/v1/teams/empty', { token: tok.solo })).status).toBe(404);
  });

  it('records every invitation and its acceptance in the audit log, in the team', async () => {
    const events = await t.services.store.audit.page({ teamIds: [(await t.services.store.teams.byName('crew'))!.id] }, { offset: 0, limit: 50 });
    const of = (kind: string) => events.rows.filter((e) => e.kind === kind).map((e) => `${e.actor_username}→${e.subject_username}:${(e.detail as { role: string }).role}`);
    expect(of('member-invited').sort()).toEqual(['olivia→adam:admin', 'olivia→edith:editor', 'olivia→victor:viewer']);
    expect(of('invitation-accepted').sort()).toEqual(['adam→adam:admin', 'edith→edith:editor', 'victor→victor:viewer']);
  });

  it("shows the team's role changes in the History of each of its zones, to any member; a user's own zone has none", async () => {
    expect((await t.request('PUT', '/api/v1/teams/crew/members/victor', { token: tok.olivia, body: { role: 'editor' } })).status).toBe(200);
    const res = await t.request('GET', '/api/v1/domains/shared.test/team-events', { token: tok.edith });
    expect(res.status).toBe(200);
    const [latest, ...older] = await res.json();
    expect(latest).toMatchObject({ kind: 'member-role-changed', actor: { username: 'olivia' }, subject: 'victor', team: 'crew', detail: { from: 'viewer', to: 'editor' } });
    expect(older.map((e: { kind: string }) => e.kind)).toEqual(['invitation-accepted', 'invitation-accepted', 'invitation-accepted']);
    expect(await (await t.request('GET', '/api/v1/domains/solo.test/team-events', { token: tok.solo })).json()).toEqual([]);
    expect((await t.request('GET', '/api/v1/domains/shared.test/team-events', { token: tok.stranger })).status).toBe(404);
  });
});
