/** Zones without HTTP: creation and its rules, SOA updates, finding a user's zone. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import { SOA_DEFAULTS } from '../../core/soa';
import type { UserRow } from '../../store/types';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';
import type { WriteOptions } from '../changes/change-sets';
import { nameAtPlace, nameFromPlace } from './zones';

let h: ServiceHarness;
let alice: UserRow;
let bob: UserRow;

const as = (u: UserRow): WriteOptions => ({ source: 'api', actor: { userId: u.id, username: u.username, credential: 'token:1' } });

/** What the promise rejects with (fails the test when it resolves). */
async function refusal(p: Promise<unknown>): Promise<Error & { fields?: Record<string, string> }> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a refusal, got a success');
  return outcome;
}

async function open(env: Record<string, string> = {}) {
  h = await serviceHarness(env);
  alice = await h.user('alice');
  bob = await h.user('bob');
}

afterEach(async () => {
  await h.close();
});

describe('creating a zone', () => {
  beforeEach(() => open());

  it('starts with the SOA defaults, the apex NS set of NAMESERVERS and a first change set from serial 0', async () => {
    const zone = await h.services.zones.create(alice.id, { name: 'Example.TEST.' }, as(alice));
    expect(zone.name).toBe('example.test');
    expect(zone.user_id).toBe(alice.id);
    expect(zone.team_id).toBeNull();
    expect({ refresh_interval: zone.refresh_interval, retry_interval: zone.retry_interval, expire_interval: zone.expire_interval, minimum_ttl: zone.minimum_ttl }).toEqual(SOA_DEFAULTS);
    expect(zone.serial_number).toBeGreaterThan(0);
    expect(zone.dnssec_enabled).toBe(false);
    const records = await h.forge.records.byDomain(zone.id);
    expect(records.map((r) => [r.name, r.record_type, r.content, r.ttl]).sort()).toEqual([
      ['@', 'NS', 'ns1.zonedeck.test', 3600],
      ['@', 'NS', 'ns2.zonedeck.test', 3600],
    ]);
    const history = await h.services.changes.page(zone, {}, { offset: 0, limit: 10 });
    expect(history.total).toBe(1);
    expect(history.rows[0]).toMatchObject({ serial_before: 0, serial_after: zone.serial_number, comment: 'zone created', actor: { username: 'alice' } });
  });

  it('takes SOA timers within their bounds, and signs the zone when asked', async () => {
    const zone = await h.services.zones.create(alice.id, { name: 'signed.test', refresh_interval: 7200, dnssec_enabled: true }, as(alice));
    expect(zone.refresh_interval).toBe(7200);
    expect(zone.retry_interval).toBe(SOA_DEFAULTS.retry_interval);
    expect(zone.dnssec_enabled).toBe(true);
    expect(await h.forge.dnssecKeys.signingKeys(zone.id)).toHaveLength(1);

    const bad = await refusal(h.services.zones.create(alice.id, { name: 'bad.test', refresh_interval: 60, minimum_ttl: 10 }, as(alice)));
    expect(bad).toBeInstanceOf(Invalid);
    expect(Object.keys(bad.fields!).sort()).toEqual(['minimum_ttl', 'refresh_interval']);
    expect(await h.forge.domains.byName('bad.test')).toBeUndefined();
  });

  it('refuses a name that is not one, naming the field', async () => {
    const e = await refusal(h.services.zones.create(alice.id, { name: 'not a name!' }, as(alice)));
    expect(e).toBeInstanceOf(Invalid);
    expect(Object.keys(e.fields!)).toEqual(['name']);
  });

  it('refuses a name that is taken, saying whose it is', async () => {
    await h.services.zones.create(alice.id, { name: 'taken.test' }, as(alice));
    const again = await refusal(h.services.zones.create(alice.id, { name: 'taken.test' }, as(alice)));
    expect(again).toBeInstanceOf(Conflict);
    expect(again.fields).toEqual({ name: 'you already manage this domain' });
    const other = await refusal(h.services.zones.create(bob.id, { name: 'taken.test' }, as(bob)));
    expect(other.fields).toEqual({ name: 'is already managed by another account' });
  });

  it('refuses public suffixes to everyone, an administrator included', async () => {
    const admin = await h.user('root', true);
    for (const [user, name] of [
      [alice, 'co.uk'],
      [admin, 'co.uk'],
      [alice, 'github.io'],
    ] as const) {
      const e = await refusal(h.services.zones.create(user.id, { name }, as(user)));
      expect(e).toBeInstanceOf(Conflict);
      expect(e.fields!.name).toMatch(/public suffix/);
    }
    // A name below one is anyone's.
    expect((await h.services.zones.create(alice.id, { name: 'example.co.uk' }, as(alice))).name).toBe('example.co.uk');
  });

  it("keeps the service's own domains (NAMESERVERS, HOSTMASTER) for an administrator alone", async () => {
    for (const name of ['zonedeck.test', 'ns1.zonedeck.test', 'sub.zonedeck.test']) {
      const e = await refusal(h.services.zones.create(alice.id, { name }, as(alice)));
      expect(e).toBeInstanceOf(Conflict);
      expect(e.fields!.name).toMatch(/name servers/);
    }
    const admin = await h.user('root', true);
    expect((await h.services.zones.create(admin.id, { name: 'zonedeck.test' }, as(admin))).user_id).toBe(admin.id);
    // Not as a team's zone, even an administrator's team.
    await h.services.teams.create(h.actor(admin), 'staff');
    const team = await refusal(h.services.zones.create(admin.id, { name: 'other.zonedeck.test', team: 'staff' }, as(admin)));
    expect(team).toBeInstanceOf(Conflict);
    expect(team.fields!.name).toMatch(/name servers/);
  });

  it('refuses the catalog zone and names inside it, to an administrator too', async () => {
    await h.close();
    await open({ CATALOG_ZONE: 'catalog.example.net' });
    const admin = await h.user('root', true);
    const own = await refusal(h.services.zones.create(admin.id, { name: 'catalog.example.net' }, as(admin)));
    expect(own.fields).toEqual({ name: 'is the catalog zone of this service' });
    const inside = await refusal(h.services.zones.create(admin.id, { name: 'x.catalog.example.net' }, as(admin)));
    expect(inside.fields).toEqual({ name: 'lies inside the catalog zone of this service' });
  });

  it('nests zones only under one owner: inside or around another account’s zone is refused', async () => {
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    const inside = await refusal(h.services.zones.create(bob.id, { name: 'sub.example.test' }, as(bob)));
    expect(inside).toBeInstanceOf(Conflict);
    expect(inside.fields).toEqual({ name: 'lies inside a domain managed by another account' });
    await h.services.zones.create(bob.id, { name: 'deep.a.test' }, as(bob));
    const around = await refusal(h.services.zones.create(alice.id, { name: 'a.test' }, as(alice)));
    expect(around.fields).toEqual({ name: 'contains a domain managed by another account' });
    // The same owner nests freely.
    expect((await h.services.zones.create(alice.id, { name: 'sub.example.test' }, as(alice))).name).toBe('sub.example.test');
  });

  it('treats a team as another owner than its members alone', async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
    await h.services.zones.create(alice.id, { name: 'team.test', team: 'ops' }, as(alice));
    const mine = await refusal(h.services.zones.create(alice.id, { name: 'sub.team.test' }, as(alice)));
    expect(mine).toBeInstanceOf(Conflict);
    expect((await h.services.zones.create(alice.id, { name: 'sub.team.test', team: 'ops' }, as(alice))).team_id).not.toBeNull();
  });

  it('creates a team zone only for a team the user is in, as its owner or admin', async () => {
    await h.services.teams.create(h.actor(alice), 'ops');
    const stranger = await refusal(h.services.zones.create(bob.id, { name: 'ops.test', team: 'ops' }, as(bob)));
    expect(stranger).toBeInstanceOf(Invalid);
    expect(stranger.fields).toEqual({ team: 'is not a team you belong to' });
    await h.services.teams.invite(h.actor(alice), 'ops', { username: 'bob', role: 'editor' });
    await h.services.teams.accept(h.actor(bob), 'ops');
    const editor = await refusal(h.services.zones.create(bob.id, { name: 'ops.test', team: 'ops' }, as(bob)));
    expect(editor).toBeInstanceOf(Forbidden);
    expect(editor.message).toMatch(/your role is editor/);
  });
});

describe('MAX_ZONES_PER_USER', () => {
  beforeEach(() => open({ MAX_ZONES_PER_USER: '2' }));

  it('refuses a zone past the limit; a deleted zone no longer counts', async () => {
    await h.services.zones.create(alice.id, { name: 'one.test' }, as(alice));
    await h.services.zones.create(alice.id, { name: 'two.test' }, as(alice));
    const third = await refusal(h.services.zones.create(alice.id, { name: 'three.test' }, as(alice)));
    expect(third).toBeInstanceOf(Forbidden);
    expect(third.message).toMatch(/MAX_ZONES_PER_USER/);
    // Another user has a limit of their own.
    expect((await h.services.zones.create(bob.id, { name: 'bobs.test' }, as(bob))).user_id).toBe(bob.id);
    await h.services.zones.remove(alice.id, 'one.test');
    expect((await h.services.zones.create(alice.id, { name: 'three.test' }, as(alice))).name).toBe('three.test');
  });
});

describe('updating SOA fields', () => {
  beforeEach(() => open());

  it('changes the fields given, bumps the serial once, and records the change', async () => {
    const zone = await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    const { change, zone: after } = await h.services.zones.update(alice.id, 'example.test', { refresh_interval: 7200, minimum_ttl: 300 }, as(alice));
    expect(after.refresh_interval).toBe(7200);
    expect(after.minimum_ttl).toBe(300);
    expect(after.retry_interval).toBe(SOA_DEFAULTS.retry_interval);
    expect(after.serial_number).toBeGreaterThan(zone.serial_number);
    expect(change.settings).toEqual({ refresh_interval: [SOA_DEFAULTS.refresh_interval, 7200], minimum_ttl: [SOA_DEFAULTS.minimum_ttl, 300] });
  });

  it('refuses values out of bounds, and a refresh shorter than the retry, changing nothing', async () => {
    const zone = await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    const low = await refusal(h.services.zones.update(alice.id, 'example.test', { expire_interval: 100 }, as(alice)));
    expect(low).toBeInstanceOf(Invalid);
    expect(low.fields).toEqual({ expire_interval: 'must be a whole number of seconds from 86400 to 2419200' });
    const pair = await refusal(h.services.zones.update(alice.id, 'example.test', { refresh_interval: 1200 }, as(alice)));
    expect(pair.fields).toEqual({ refresh_interval: 'must not be less than retry_interval (3600)' });
    const now = await h.forge.domains.byName('example.test');
    expect(now!.serial_number).toBe(zone.serial_number);
    expect(now!.expire_interval).toBe(SOA_DEFAULTS.expire_interval);
  });

  it('leaves the serial alone for a patch that changes nothing', async () => {
    const zone = await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    await h.services.zones.update(alice.id, 'example.test', { refresh_interval: SOA_DEFAULTS.refresh_interval }, as(alice));
    expect((await h.forge.domains.byName('example.test'))!.serial_number).toBe(zone.serial_number);
  });

  it("answers another user's zone as a missing one", async () => {
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    const theirs = await refusal(h.services.zones.update(bob.id, 'example.test', { refresh_interval: 7200 }, as(bob)));
    const missing = await refusal(h.services.zones.update(bob.id, 'nothing.test', { refresh_interval: 7200 }, as(bob)));
    expect(theirs).toBeInstanceOf(NotFound);
    expect(missing).toBeInstanceOf(NotFound);
    expect(theirs.message).toBe('no domain named example.test');
    expect((await h.forge.domains.byName('example.test'))!.refresh_interval).toBe(SOA_DEFAULTS.refresh_interval);
  });
});

describe("finding a user's zone", () => {
  beforeEach(() => open());

  it('finds the closest zone above a name, with the name inside it', async () => {
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    await h.services.zones.create(alice.id, { name: 'sub.example.test' }, as(alice));
    expect(await h.services.zones.place(alice.id, 'example.test')).toMatchObject({ zone: { name: 'example.test' }, base: '@' });
    expect(await h.services.zones.place(alice.id, 'www.example.test')).toMatchObject({ zone: { name: 'example.test' }, base: 'www' });
    expect(await h.services.zones.place(alice.id, '*.a.b.sub.example.test')).toMatchObject({ zone: { name: 'sub.example.test' }, base: 'a.b' });
    await expect(h.services.zones.place(bob.id, 'www.example.test')).rejects.toBeInstanceOf(NotFound);
    await expect(h.services.zones.place(alice.id, 'www.other.test')).rejects.toBeInstanceOf(NotFound);
  });

  it('reads a place again inside a transaction: a zone gone since is NotFound', async () => {
    await h.services.zones.create(alice.id, { name: 'example.test' }, as(alice));
    const place = await h.services.zones.place(alice.id, 'example.test');
    await h.services.zones.remove(alice.id, 'example.test');
    expect(await h.services.zones.owned(alice.id, place)).toBe(place.zone);
    await expect(h.forge.transaction((tx) => h.services.zones.owned(alice.id, place, tx))).rejects.toBeInstanceOf(NotFound);
  });

  it('turns names between a place and the zone', () => {
    const zone = { name: 'example.test' } as Parameters<typeof nameAtPlace>[1]['zone'];
    expect(nameAtPlace('_acme-challenge', { zone, base: 'www' })).toBe('_acme-challenge.www');
    expect(nameAtPlace('@', { zone, base: 'www' })).toBe('www');
    expect(nameAtPlace('mail', { zone, base: '@' })).toBe('mail');
    expect(nameFromPlace('_acme-challenge.www', 'www')).toBe('_acme-challenge');
    expect(nameFromPlace('www', 'www')).toBe('@');
    expect(nameFromPlace('mail', 'www')).toBeNull();
  });
});
