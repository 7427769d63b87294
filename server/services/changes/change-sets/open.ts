/**
 * Opening a change set inside its transaction: the zone it is for read and locked once (brought
 * into being first when the change creates or restores it), the actor's role on that row judged
 * once, If-Match checked on it; then the handle with an empty draft of that zone.
 */
import { NotFound, SecondaryZone } from '../../../core/errors';
import type { Slicer } from '../../../core/pause';
import type { DomainRow, Repos } from '../../../store/types';
import { roleOn } from '../../zones/access';
import { ZoneDraft } from '../zone-draft';
import { checkIfMatch } from './guards';
import type { ChangeSetOptions, Target, WriteOptions, ZoneToBe } from './types';
import { ZoneUpdate } from './zone-update';

/**
 * Zones a change across zones locked before its first change set, by id (a change of one zone
 * locks its zone when it opens). Each is taken once: a second change of the same zone reads it again.
 */
export type LockedZones = Map<number, DomainRow>;

/** Opens the handle on the zone `target` names, for `opts.actor`. NotFound when the actor may not reach it, 412 on a stale If-Match. */
export async function openUpdate(tx: Repos, target: Target, opts: WriteOptions, how: { options: ChangeSetOptions; slice: Slicer; locked?: LockedZones }): Promise<ZoneUpdate> {
  const now = new Date();
  const { zone, created } = await lockTarget(tx, target, now, how.locked);
  const role = opts.actor.userId === undefined ? 'owner' : await roleOn(tx, opts.actor.userId, zone);
  if (!role) throw new NotFound(`no domain named ${zone.name}`);
  // A secondary's records are its primary's: only its transfers write them.
  if (zone.kind === 'secondary' && !created && opts.source !== 'transfer') throw new SecondaryZone(zone.name);
  // A change made for a user with no credential of theirs (the admin CLI) is theirs.
  const actor = opts.actor.username === '' ? { ...opts.actor, username: (await tx.users.byId(zone.user_id))?.username ?? '' } : opts.actor;
  checkIfMatch(zone, opts.ifMatch);
  const { aliasResolver = false, aliasDeny, maxRecords } = how.options;
  const draft = new ZoneDraft(tx, zone, { aliasResolver, aliasDeny, slice: how.slice });
  return new ZoneUpdate(tx, zone, role, actor, draft, opts, maxRecords, now);
}

/**
 * The target's zone, read and locked in this transaction (a zone found before it is read again: it
 * may have changed since), and whether this change set brings it into being (creates or restores it).
 */
async function lockTarget(tx: Repos, target: Target, now: Date, locked?: LockedZones): Promise<{ zone: DomainRow; created: boolean }> {
  if (typeof target === 'function') {
    const located = await target(tx, now);
    return { zone: await tx.domains.lock(await bring(tx, located, now)), created: !('id' in located) };
  }
  const held = locked?.get(target.id);
  locked?.delete(target.id);
  const zone = held ?? (await lockById(tx, target.id));
  if (!zone || zone.name !== target.name) throw new NotFound(`no domain named ${target.name}`);
  return { zone, created: false };
}

/** The zone with this id, read in this transaction and locked (PostgreSQL reads it FOR UPDATE; SQLite's transaction holds the write lock from its start). */
async function lockById(tx: Repos, id: number): Promise<DomainRow | undefined> {
  const zone = await tx.domains.byId(id);
  return zone && tx.domains.lock(zone);
}

/** The zone `located` names: itself, or the zone it creates or restores (with the catalog's serial moved on). */
async function bring(tx: Repos, located: DomainRow | ZoneToBe, now: Date): Promise<DomainRow> {
  if ('id' in located) return located;
  // The catalog lists the zone from this commit on, at a serial every node agrees on (RFC 9432).
  await tx.catalog.bump(now);
  if ('create' in located) return tx.domains.insert(located.create);
  const restored = await tx.deletedZones.unarchive(located.restore);
  if (!restored) throw new NotFound(`no deleted zone with id ${located.restore}`);
  return restored;
}

/**
 * Locks the zones of a change across zones before any of them changes, in id order, so that two
 * such changes over the same zones given in opposite orders wait for each other instead of
 * deadlocking (PostgreSQL row locks). A zone that cannot be found here fails later, in its own job,
 * with its own error.
 */
export async function lockInOrder(tx: Repos, targets: readonly Target[]): Promise<LockedZones> {
  const now = new Date();
  const rows = new Map<number, DomainRow | null>();
  for (const target of targets) {
    if (typeof target !== 'function') rows.set(target.id, rows.get(target.id) ?? null);
    else
      for (const row of await target(tx, now).then(
        (r) => ('id' in r ? [r] : []),
        () => [],
      ))
        rows.set(row.id, row);
  }
  const locked: LockedZones = new Map();
  for (const id of [...rows.keys()].sort((a, b) => a - b)) {
    const found = rows.get(id);
    // A zone a `Locate` finds is found (and locked) again when its job opens; one found before is read here, locked, once.
    if (found) await tx.domains.lock(found);
    else {
      const zone = await lockById(tx, id);
      if (zone) locked.set(id, zone);
    }
  }
  return locked;
}
