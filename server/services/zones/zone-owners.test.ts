/** An owner's acts on a whole zone without HTTP: deletion and restore, the move between a user and a team. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound, PreconditionFailed } from '../../core/errors';
import type { UserRow } from '../../store/types';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';
import type { WriteOptions } from '../changes/change-sets';

let h: ServiceHarness;
let alice: UserRow;
let bob: UserRow;

const as = (u: UserRow): WriteOptions => ({ source: 'api', actor: { userId: u.id, username: u.username, credential: 'token:1' } });
const w = { offset: 0, limit: 50 };

async function refusal(p: Promise<unknown>): Promise<Error & { fields?: Record<string, string> }> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a refusal, got a success');
  return outcome;
}

/** Bob joins alice's team `ops` with `role`. */
async function join(role: 'owner' | 'admin' | 'editor' | 'viewer') {
  await h.services.teams.invite(h.actor(alice), 'ops', { username: 'bob', role });
  await h.services.teams.accept(h.actor(bob), 'ops');
}

beforeEach(async () => {
  h = await serviceHarness();
  alice = await h.user('alice');
  bob = await h.user('bob');
});
afterEach(async () => {
  await h.close();
});

describe('deleting and restoring a zone', () => {
  it('archives the zone, and restores it with its settings, keys and a newer serial', async () => {
    const created = await h.services.zones.create(alice.id, { name: 'example.test', dnssec_enabled: true }, as(alice));
    const { zone: before } = await h.services.zones.update(alice.id, 'example.test', { refresh_interval: 7200 }, as(alice));
    const [key] = await h.forge.dnssecKeys.signingKeys(created.id);
    await h.services.zones.remove(alice.id, 'example.test', undefined, undefined, { actor: { userId: alice.id, username: 'alice', credential: 'session' } });

    expect(await h.forge.domains.byName('example.test')).toBeUndefined();
    const { rows } = await h.services.deletedZones.page(alice.id, w);
    expect(rows.map((d) => [d.name, d.deleted_by, d.dnssec])).toEqual([['example.test', 'alice', true]]);
    expect((await h.services.deletedZones.page(bob.id, w)).total).toBe(0);
    const events = await h.services.audit.list(alice, {}, w);
    expect(events.rows.map((e) => e.kind)).toContain('zone-deleted');

    const restored = await h.services.deletedZones.restore(alice.id, rows[0]!.id, as(alice), { userId: alice.id, username: 'alice', credential: 'session' });
    expect(restored.name).toBe('example.test');
    expect(restored.refresh_interval).toBe(7200);
    expect(restored.serial_number).toBeGreaterThan(before.serial_number);
    // The very same key material, so that the parent's DS still matches.
    expect((await h.forge.dnssecKeys.signingKeys(restored.id)).map((k) => k.private_key)).toEqual([key!.private_key]);
    expect((await h.services.deletedZones.page(alice.id, w)).total).toBe(0);
  });

  it("refuses another user's archive as a missing one, and a restore whose name was taken since", async () => {
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    await h.services.zones.remove(alice.id, 'example.test');
    const [archive] = (await h.services.deletedZones.page(alice.id, w)).rows;
    const actorBob = { userId: bob.id, username: 'bob', credential: 'session' };
    expect(await refusal(h.services.deletedZones.restore(bob.id, archive!.id, as(bob), actorBob))).toBeInstanceOf(NotFound);

    await h.services.zones.create(bob.id, { name: 'example.test' }, as(bob));
    const taken = await refusal(h.services.deletedZones.restore(alice.id, archive!.id, as(alice), { userId: alice.id, username: 'alice', credential: 'session' }));
    expect(taken).toBeInstanceOf(Conflict);
    expect(taken.fields).toEqual({ name: 'is already managed by another account' });
    // Still there to restore once the name is free.
    expect((await h.services.deletedZones.page(alice.id, w)).total).toBe(1);
  });

  it('refuses a stale If-Match, and leaves the zone', async () => {
    const zone = await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    const e = await refusal(h.services.zones.remove(alice.id, 'example.test', zone.serial_number - 1));
    expect(e).toBeInstanceOf(PreconditionFailed);
    expect(await h.forge.domains.byName('example.test')).toBeDefined();
    await h.services.zones.remove(alice.id, 'example.test', zone.serial_number);
    expect(await h.forge.domains.byName('example.test')).toBeUndefined();
  });

  it("lets only an owner of a team delete the team's zone", async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
    await join('admin');
    await h.services.zones.create(alice.id, { name: 'ops.test', team: 'ops' }, as(alice));
    const e = await refusal(h.services.zones.remove(bob.id, 'ops.test'));
    expect(e).toBeInstanceOf(Forbidden);
    expect(e.message).toMatch(/owner of team ops/);
    expect(await h.forge.domains.byName('ops.test')).toBeDefined();
  });

  it('discards a zone without an archive when asked', async () => {
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    await h.services.zones.remove(alice.id, 'example.test', undefined, undefined, { discard: true });
    expect(await h.forge.domains.byName('example.test')).toBeUndefined();
    expect((await h.services.deletedZones.page(alice.id, w)).total).toBe(0);
  });
});

describe('moving a zone between a user and a team', () => {
  beforeEach(async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
  });

  it('hands the zone to the team, whose members then reach it, and back to the user alone', async () => {
    const zone = await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    await join('editor');
    await expect(h.services.zones.owned(bob.id, 'example.test')).rejects.toBeInstanceOf(NotFound);

    const moved = await h.services.zones.move(alice.id, 'example.test', 'ops');
    expect(moved.from).toBeNull();
    expect(moved.zone.team_id).not.toBeNull();
    expect((await h.services.zones.owned(bob.id, 'example.test')).id).toBe(zone.id);

    const back = await h.services.zones.move(alice.id, 'example.test', null);
    expect(back.from).toBe('ops');
    expect(back.zone).toMatchObject({ user_id: alice.id, team_id: null });
    await expect(h.services.zones.owned(bob.id, 'example.test')).rejects.toBeInstanceOf(NotFound);
  });

  it('needs an owner on both sides', async () => {
    await h.services.zones.create(bob.id, { name: 'bobs.test' }, as(bob));
    // Bob is no owner of ops: an admin there may not move his zone into it.
    await join('admin');
    const notOwner = await refusal(h.services.zones.move(bob.id, 'bobs.test', 'ops'));
    expect(notOwner).toBeInstanceOf(Forbidden);
    expect(notOwner.message).toMatch(/only an owner of team ops may move zones into it/);
    const unknown = await refusal(h.services.zones.move(bob.id, 'bobs.test', 'nobody'));
    expect(unknown).toBeInstanceOf(Invalid);
    expect(unknown.fields).toEqual({ team: 'is not a team you belong to' });
    // Out of a team: an admin of it may not take its zone.
    await h.services.zones.create(alice.id, { name: 'ops.test', team: 'ops' }, as(alice));
    expect(await refusal(h.services.zones.move(bob.id, 'ops.test', null))).toBeInstanceOf(Forbidden);
    expect((await h.forge.domains.byName('ops.test'))!.team_id).not.toBeNull();
  });

  it('refuses a move that would nest zones across owners', async () => {
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    await h.services.zones.create(alice.id, { name: 'sub.example.test' }, as(alice));
    const e = await refusal(h.services.zones.move(alice.id, 'sub.example.test', 'ops'));
    expect(e).toBeInstanceOf(Conflict);
    expect(e.message).toMatch(/example\.test, which is yours alone/);
    expect(e.fields).toEqual({ team: 'the domain lies inside a domain of another owner' });
    expect((await h.forge.domains.byName('sub.example.test'))!.team_id).toBeNull();
  });

  it("keeps a zone of the service's own domains an administrator's alone", async () => {
    const admin = await h.user('root', true);
    await h.services.teams.create(h.actor(admin), 'staff');
    await h.services.zones.create(admin.id, { name: 'zonedeck.test' }, as(admin));
    const e = await refusal(h.services.zones.move(admin.id, 'zonedeck.test', 'staff'));
    expect(e).toBeInstanceOf(Conflict);
    expect(e.fields!.team).toMatch(/name servers/);
  });
});
