/** Teams without HTTP: names, who sees a team, invitations, roles, the last owner, deletion. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import type { UserRow } from '../../store/types';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';
import { MAX_PENDING } from './teams';

let h: ServiceHarness;
let alice: UserRow;
let bob: UserRow;
let carol: UserRow;

async function refusal(p: Promise<unknown>): Promise<Error & { fields?: Record<string, string> }> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a refusal, got a success');
  return outcome;
}

/** `user` joins team ops with `role`, invited by alice. */
async function join(user: UserRow, role: 'owner' | 'admin' | 'editor' | 'viewer') {
  await h.services.teams.invite(h.actor(alice), 'ops', { username: user.username, role });
  await h.services.teams.accept(h.actor(user), 'ops');
}

const roles = async () => (await h.services.teams.members(h.actor(alice), 'ops')).map((m) => `${m.username}:${m.role}`).sort();

beforeEach(async () => {
  h = await serviceHarness();
  alice = await h.user('alice');
  bob = await h.user('bob');
  carol = await h.user('carol');
});
afterEach(async () => {
  await h.close();
});

describe('creating and seeing teams', () => {
  it('makes its creator its owner, and records it', async () => {
    const view = await h.services.teams.create(h.actor(alice), ' Ops ');
    expect(view).toMatchObject({ name: 'ops', role: 'owner', members: 1, zones: 0 });
    const events = await h.services.audit.list(alice, { team: 'ops' }, { offset: 0, limit: 10 });
    expect(events.rows.map((e) => e.kind)).toEqual(['team-created']);
  });

  it('refuses look-alike and taken names', async () => {
    for (const name of ['ops.', '.ops', 'ops..x', '', 'a'.repeat(65), 'with space']) {
      const e = await refusal(h.services.teams.create(h.actor(alice), name));
      expect(e).toBeInstanceOf(Invalid);
      expect(Object.keys(e.fields!)).toEqual(['name']);
    }
    await h.services.teams.create(h.actor(alice), 'ops.eu');
    expect(await refusal(h.services.teams.create(h.actor(bob), 'OPS.EU'))).toBeInstanceOf(Conflict);
  });

  it('shows a team to its members and to administrators only; to others it does not exist', async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
    const stranger = await refusal(h.services.teams.get(h.actor(bob), 'ops'));
    expect(stranger).toBeInstanceOf(NotFound);
    expect(stranger.message).toBe('no team named ops');
    expect((await refusal(h.services.teams.get(h.actor(bob), 'nothing'))).message).toBe('no team named nothing');
    const admin = await h.user('root', true);
    expect(await h.services.teams.get(h.actor(admin), 'ops')).toMatchObject({ name: 'ops', role: null, members: 1 });
    expect((await h.services.teams.page(h.actor(admin), { offset: 0, limit: 10 }, true)).total).toBe(1);
    expect((await h.services.teams.page(h.actor(bob), { offset: 0, limit: 10 }, true)).total).toBe(0);
  });
});

describe('invitations', () => {
  beforeEach(async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
  });

  it('makes a member of the invited user once they accept, with the role offered', async () => {
    await h.services.teams.invite(h.actor(alice), 'ops', { username: 'Bob', role: 'editor' });
    expect((await h.services.teams.mine(h.actor(bob))).map((i) => [i.username, i.role])).toEqual([['bob', 'editor']]);
    expect(await roles()).toEqual(['alice:owner']);
    const view = await h.services.teams.accept(h.actor(bob), 'ops');
    expect(view).toMatchObject({ name: 'ops', role: 'editor', members: 2 });
    expect(await roles()).toEqual(['alice:owner', 'bob:editor']);
    expect(await h.services.teams.mine(h.actor(bob))).toEqual([]);
  });

  it('answers an invitation to a name nobody has like any other', async () => {
    const ghost = await h.services.teams.invite(h.actor(alice), 'ops', { username: 'nobody', role: 'viewer' });
    expect(ghost).toMatchObject({ username: 'nobody', user_id: null, role: 'viewer' });
    expect((await h.services.teams.invitations(h.actor(alice), 'ops')).map((i) => i.username)).toEqual(['nobody']);
  });

  it('refuses a bad username or role, a member, an invitation twice', async () => {
    expect(Object.keys((await refusal(h.services.teams.invite(h.actor(alice), 'ops', { username: '-x', role: 'viewer' }))).fields!)).toEqual(['username']);
    expect(Object.keys((await refusal(h.services.teams.invite(h.actor(alice), 'ops', { username: 'bob', role: 'boss' }))).fields!)).toEqual(['role']);
    expect((await refusal(h.services.teams.invite(h.actor(alice), 'ops', { username: 'alice', role: 'viewer' }))).fields).toEqual({ username: 'is already a member' });
    await h.services.teams.invite(h.actor(alice), 'ops', { username: 'bob', role: 'viewer' });
    expect((await refusal(h.services.teams.invite(h.actor(alice), 'ops', { username: 'bob', role: 'admin' }))).fields).toEqual({ username: 'is already invited' });
  });

  it('leaves inviting and cancelling to owners; an admin sees the invitations, an editor does not', async () => {
    await join(bob, 'admin');
    await join(carol, 'editor');
    expect(await refusal(h.services.teams.invite(h.actor(bob), 'ops', { username: 'dave', role: 'viewer' }))).toBeInstanceOf(Forbidden);
    await h.services.teams.invite(h.actor(alice), 'ops', { username: 'dave', role: 'viewer' });
    expect((await h.services.teams.invitations(h.actor(bob), 'ops')).map((i) => i.username)).toEqual(['dave']);
    expect(await refusal(h.services.teams.invitations(h.actor(carol), 'ops'))).toBeInstanceOf(Forbidden);
    expect(await refusal(h.services.teams.cancel(h.actor(bob), 'ops', 'dave'))).toBeInstanceOf(Forbidden);
    await h.services.teams.cancel(h.actor(alice), 'ops', 'dave');
    expect(await h.services.teams.invitations(h.actor(alice), 'ops')).toEqual([]);
    expect(await refusal(h.services.teams.cancel(h.actor(alice), 'ops', 'dave'))).toBeInstanceOf(NotFound);
  });

  it('takes a decline, and no accept without an invitation', async () => {
    await h.services.teams.invite(h.actor(alice), 'ops', { username: 'bob', role: 'viewer' });
    await h.services.teams.decline(h.actor(bob), 'ops');
    expect(await refusal(h.services.teams.accept(h.actor(bob), 'ops'))).toBeInstanceOf(NotFound);
    expect(await roles()).toEqual(['alice:owner']);
  });

  it('holds at most MAX_PENDING invitations at once', async () => {
    for (let i = 0; i < MAX_PENDING; i++) await h.services.teams.invite(h.actor(alice), 'ops', { username: `user${i}`, role: 'viewer' });
    const e = await refusal(h.services.teams.invite(h.actor(alice), 'ops', { username: 'onemore', role: 'viewer' }));
    expect(e).toBeInstanceOf(Conflict);
    expect(e.message).toMatch(/pending invitations/);
  });
});

describe('roles and leaving', () => {
  beforeEach(async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
    await join(bob, 'editor');
  });

  it('lets an owner change roles, never leaving the team without an owner', async () => {
    const e = await refusal(h.services.teams.setRole(h.actor(alice), 'ops', 'alice', 'admin'));
    expect(e).toBeInstanceOf(Conflict);
    expect(e.fields).toEqual({ username: 'is the last owner' });
    await h.services.teams.setRole(h.actor(alice), 'ops', 'bob', 'owner');
    await h.services.teams.setRole(h.actor(alice), 'ops', 'alice', 'viewer');
    expect(await roles()).toEqual(['alice:viewer', 'bob:owner']);
    expect(await refusal(h.services.teams.setRole(h.actor(alice), 'ops', 'bob', 'viewer'))).toBeInstanceOf(Forbidden);
    expect(await refusal(h.services.teams.setRole(h.actor(bob), 'ops', 'carol', 'viewer'))).toBeInstanceOf(NotFound);
  });

  it('lets a member leave and an owner remove one; the last owner stays', async () => {
    await join(carol, 'viewer');
    expect(await refusal(h.services.teams.removeMember(h.actor(bob), 'ops', 'carol'))).toBeInstanceOf(Forbidden);
    await h.services.teams.removeMember(h.actor(carol), 'ops', 'carol');
    await h.services.teams.removeMember(h.actor(alice), 'ops', 'bob');
    expect(await refusal(h.services.teams.removeMember(h.actor(alice), 'ops', 'alice'))).toBeInstanceOf(Conflict);
    expect(await roles()).toEqual(['alice:owner']);
  });

  it('deletes a team only once it owns no zone, and only by an owner', async () => {
    await h.services.zones.create(alice.id, { name: 'ops.test', team: 'ops' });
    expect(await refusal(h.services.teams.remove(h.actor(bob), 'ops'))).toBeInstanceOf(Forbidden);
    const owns = await refusal(h.services.teams.remove(h.actor(alice), 'ops'));
    expect(owns).toBeInstanceOf(Conflict);
    expect(owns.message).toMatch(/still owns 1 zone:/);
    await h.services.zones.remove(alice.id, 'ops.test');
    await h.services.teams.remove(h.actor(alice), 'ops');
    expect(await refusal(h.services.teams.get(h.actor(alice), 'ops'))).toBeInstanceOf(NotFound);
  });

  it("names each team zone's team and the user's role in it", async () => {
    const team = await h.services.zones.create(alice.id, { name: 'ops.test', team: 'ops' });
    const own = await h.services.zones.create(bob.id, { name: 'bob.test' });
    const of = await h.services.teams.ofZones(bob.id, [team, own]);
    expect([...of]).toEqual([[team.id, { team: 'ops', role: 'editor' }]]);
    expect([...(await h.services.teams.ofZones(carol.id, [team]))]).toEqual([]);
  });
});
