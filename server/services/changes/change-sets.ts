/**
 * The one write path of zone data. Every change to a zone — a record, an RRset, SOA timers,
 * DNSSEC, an import, an RFC 2136 update, a revert — is a change set, made through a handle in the
 * manner of Knot's zone update: `update(zone, opts, edit)` opens it in one transaction (the zone
 * read and locked, the actor's role judged and If-Match checked, once), `edit` changes its draft
 * and settings, and the commit checks the zone as it will be, writes, bumps the serial once and
 * appends the change set to the zone's history; after the commit one zone event goes out. A dry
 * run does all of it and rolls back. The pieces live in change-sets/ (open, commit, guards, run,
 * history, revert, alter-zone); this module wires them to the store.
 *
 * It alone, with change-sets/, holds the zone writer (`Store`, whose transaction writes records,
 * zone rows, keys and history); every other service gets a `ServiceStore` without it, and the
 * layers above a `ReadStore` (store/types.ts). Writers see the transaction as `ServiceRepos`: a
 * zone comes into being by returning a `ZoneToBe` from a `Locate`, not by writing it.
 */
import type { ChangeFilter, DomainRow, ServiceRepos, Store, Window } from '../../store/types';
import type { ZoneEvents } from './events';
import { alterZone, markDelegated, markRefreshed } from './change-sets/alter-zone';
import { changeOf, changePage } from './change-sets/history';
import { revertEdit } from './change-sets/revert';
import { runUpdates } from './change-sets/run';
import type { After, Applied, ChangeSetHooks, ChangeSetOptions, Edit, Target, UpdateJob, WriteOptions, ZoneAlteration, ZoneChangeJob } from './change-sets/types';
import type { ZoneUpdate } from './change-sets/zone-update';

export * from './change-sets/types';
export { view, type ChangeSetView } from './change-sets/history';
export { ZoneUpdate } from './change-sets/zone-update';

/** The older form of a change: a builder, and an `after` that sees what the commit wrote. */
function asJob<T>(job: ZoneChangeJob<T>): UpdateJob<T> {
  return {
    target: job.locate,
    fail: job.fail,
    async edit(update) {
      await job.build(update);
      if (!job.after) return undefined as T;
      const { zone, change, inserted } = await update.commit();
      return job.after(update.tx, zone, change, inserted);
    },
  };
}

export function createChangeSets(store: Store, events: ZoneEvents, options: ChangeSetOptions, hooks?: ChangeSetHooks) {
  const deps = { store, events, options, hooks };
  const update = async <T>(target: Target, opts: WriteOptions, edit: (update: ZoneUpdate) => Promise<T> | T): Promise<Applied<T>> => (await runUpdates(deps, [{ target, edit }], opts))[0]!;
  return {
    /**
     * One change set of the zone `target` names: opened (locked, judged), edited by `edit`, and
     * committed when `edit` returns unless it committed itself; what `edit` returns is `result`.
     * The change set has id null for a dry run or a change that changes nothing.
     */
    update,

    /** One change set per job, every one in ONE transaction (a batch across zones): one that fails rolls back all. */
    updateMany: <T>(jobs: readonly UpdateJob<T>[], opts: WriteOptions): Promise<Applied<T>[]> => runUpdates(deps, jobs, opts),

    /** `update` with a builder that only edits and an `after` that sees what was written (the older form). */
    apply: <T = void>(locate: Target, opts: WriteOptions, build: (edit: Edit) => Promise<void> | void, after?: After<T>): Promise<Applied<T>> =>
      runUpdates(deps, [asJob({ locate, build, after })], opts).then(([a]) => a!),

    /** `updateMany` of builders (the older form). */
    applyMany: <T = void>(jobs: readonly ZoneChangeJob<T>[], opts: WriteOptions): Promise<Applied<T>[]> => runUpdates(deps, jobs.map(asJob), opts),

    /** A zone's row moved to another owner or deleted (not a change set: no serial, no history of it). */
    alterZone: <T>(locate: (tx: ServiceRepos) => Promise<DomainRow>, decide: (tx: ServiceRepos, zone: DomainRow) => Promise<ZoneAlteration<T>>) => alterZone(deps, locate, decide),

    markDelegated: (domainId: number, delegated: boolean) => markDelegated(deps, domainId, delegated),

    /** A secondary checked and found current: its expiry moves on (every node's DNS hears of it). */
    markRefreshed: (domainId: number, expiresAt: string) => markRefreshed(deps, domainId, expiresAt),

    /** Removes the deleted zones whose time is up (the hourly pruning); returns how many. */
    purgeDeleted: (now = new Date()) => store.deletedZones.purge(now.toISOString()),

    /** A zone's change sets, newest first; each with at most `limit` records of each side. */
    page: (zone: DomainRow, filter: ChangeFilter, w: Window, limit = 1000) => changePage(store, zone, filter, w, limit),

    get: (zone: DomainRow, id: number) => changeOf(store, zone, id),

    /**
     * Reverts a change set by applying its inverse as a new one (source `revert`). Refused
     * with a 409 naming them when records or settings it touched have changed since.
     */
    revert: (target: Target, id: number, opts: Omit<WriteOptions, 'source'>) => update(target, { ...opts, source: 'revert', comment: opts.comment ?? `revert of change ${id}` }, revertEdit(id, opts)),

    /** The edit that reverts change `id` (as `revert` applies it), for a revert across zones in one transaction. */
    revertBuild: revertEdit,

    /** Removes change sets older than `days` days; returns how many. */
    prune: (days: number, now = new Date()) => store.changes.prune(new Date(now.getTime() - days * 86_400_000).toISOString()),
  };
}

export type ChangeSets = ReturnType<typeof createChangeSets>;
