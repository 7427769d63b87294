/**
 * Moving zones to other name servers: a start with a new NAMESERVERS moves the zones on the previous
 * set (one change set each, serial bumped, in the history as zonedeck's), leaves a set made by hand
 * and secondary zones alone, moves each zone once when two nodes start together, and never touches
 * anything on an install that kept the default; `move` does it for chosen zones, or shows it first.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { servicesFor, type Services } from '..';
import { APEX } from '../../core/domain-name';
import type { UserRow } from '../../store/types';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';
import { CLI_WRITE } from '../changes/change-sets';

let h: ServiceHarness;
let alice: UserRow;
beforeEach(async () => {
  h = await serviceHarness();
  alice = await h.user('alice');
});
afterEach(() => h.close());

const NEW = ['ns1.example.net', 'ns2.example.net'];
/** The services as a start with NAMESERVERS set to `nameservers` makes them, over the same database. */
const startedWith = (nameservers: string[]): Services => servicesFor(h.forge, { ...h.config, nameservers });
const apexNs = async (name: string) => {
  const zone = (await h.forge.domains.byName(name))!;
  return (await h.forge.records.atName(zone.id, APEX))
    .filter((r) => r.record_type === 'NS')
    .map((r) => r.content)
    .sort();
};
const serial = async (name: string) => (await h.forge.domains.byName(name))!.serial_number;

/** A zone whose apex NS set an administrator made (a zone file, the PowerDNS API). */
async function setByHand(name: string, nameservers: string[]) {
  const zone = (await h.forge.domains.byName(name))!;
  await h.services.changes.update(zone, CLI_WRITE, async (u) => {
    await u.draft.load([APEX]);
    u.draft.system = true;
    u.draft.put(
      APEX,
      'NS',
      nameservers.map((content) => ({ content, ttl: 3600 })),
      3600,
    );
  });
}

describe('a start with another NAMESERVERS', () => {
  it('moves the zones on the previous set, each by a change set of zonedeck, and leaves a set made by hand and secondary zones', async () => {
    // The quick start: NAMESERVERS unset, zones made, then the operator sets it.
    await h.services.nameservers.follow();
    for (const name of ['a.test', 'b.test', 'own.test']) await h.services.zones.create(alice.id, { name });
    await h.services.zones.create(alice.id, { name: 'copy.test', secondary: { primaries: ['192.0.2.1'] } });
    await setByHand('own.test', ['ns.elsewhere.example']);
    const before = await serial('a.test');

    const moved = await startedWith(NEW).nameservers.follow();
    expect(moved?.from).toEqual(['ns1.zonedeck.test', 'ns2.zonedeck.test']);
    expect(moved?.result.moved.map((z) => z.name).sort()).toEqual(['a.test', 'b.test']);
    expect(await apexNs('a.test')).toEqual(NEW);
    expect(await apexNs('b.test')).toEqual(NEW);
    expect(await apexNs('own.test')).toEqual(['ns.elsewhere.example']);
    expect(await apexNs('copy.test')).toEqual([]);
    expect(await serial('a.test')).toBeGreaterThan(before);
    const zone = (await h.forge.domains.byName('a.test'))!;
    const [last] = (await h.forge.changes.page(zone.id, {}, { limit: 1, offset: 0 })).rows;
    expect(last).toMatchObject({ source: 'system', comment: 'name servers moved from ns1.zonedeck.test, ns2.zonedeck.test to ns1.example.net, ns2.example.net' });

    // The next start with the same NAMESERVERS has nothing to do.
    expect(await startedWith(NEW).nameservers.follow()).toBeNull();
    expect((await startedWith(NEW).nameservers.others()).zones).toBe(1);
  });

  it('moves each zone once when two nodes start together', async () => {
    await h.services.nameservers.follow();
    for (const name of ['a.test', 'b.test', 'c.test']) await h.services.zones.create(alice.id, { name });
    const [one, two] = await Promise.all([startedWith(NEW).nameservers.follow(), startedWith(NEW).nameservers.follow()]);
    expect((one?.result.moved.length ?? 0) + (two?.result.moved.length ?? 0)).toBe(3);
    for (const name of ['a.test', 'b.test', 'c.test']) {
      const zone = (await h.forge.domains.byName(name))!;
      expect((await h.forge.changes.page(zone.id, { source: 'system' }, { limit: 10, offset: 0 })).rows).toHaveLength(1);
    }
  });

  it('on an install from before, with nothing remembered, moves zones only off the default .test set', async () => {
    for (const name of ['a.test', 'b.test']) await h.services.zones.create(alice.id, { name });
    await setByHand('b.test', ['ns.elsewhere.example']);
    // Kept the default: nothing to move.
    expect(await h.services.nameservers.follow()).toBeNull();
    expect(await apexNs('a.test')).toEqual(['ns1.zonedeck.test', 'ns2.zonedeck.test']);

    const h2 = await serviceHarness();
    try {
      const bob = await h2.user('bob');
      await h2.services.zones.create(bob.id, { name: 'c.test' });
      const moved = await servicesFor(h2.forge, { ...h2.config, nameservers: NEW }).nameservers.follow();
      expect(moved?.result.moved.map((z) => z.name)).toEqual(['c.test']);
    } finally {
      await h2.close();
    }
  });
});

describe('moving zones on request', () => {
  it('moves the named zones that have the given set, shows it first in a dry run, and says why the others stay', async () => {
    for (const name of ['a.test', 'b.test', 'own.test']) await h.services.zones.create(alice.id, { name });
    await setByHand('own.test', ['ns.elsewhere.example']);
    const moves = startedWith(NEW).nameservers;

    const dry = await moves.move({ to: NEW, from: ['ns2.zonedeck.test', 'NS1.zonedeck.test.'], zones: ['a.test', 'own.test', 'gone.test'], dryRun: true });
    expect(dry.moved.map((z) => z.name)).toEqual(['a.test']);
    expect(dry.skipped).toEqual([
      { name: 'gone.test', why: 'no such primary zone' },
      { name: 'own.test', why: 'has another set (ns.elsewhere.example)' },
    ]);
    expect(await apexNs('a.test')).toEqual(['ns1.zonedeck.test', 'ns2.zonedeck.test']);

    // Without `from`: every zone not on the new set, the hand-made one too.
    const all = await moves.move({ to: NEW });
    expect(all.moved.map((z) => z.name).sort()).toEqual(['a.test', 'b.test', 'own.test']);
    expect(await apexNs('own.test')).toEqual(NEW);
    expect((await moves.others()).zones).toBe(0);
  });
});
