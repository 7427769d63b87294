/**
 * Change sets run in one transaction: one per zone, each opened, edited and committed in turn.
 * A job that fails rolls back all of them, so nothing is changed; a dry run does all of it and
 * rolls back; a client gone stops it before the commit. The zone events go out only after the
 * commit (and the other nodes hear of each zone when, and only if, it commits).
 */
import { ClientGone } from '../../../core/errors';
import { slicer, type Slicer } from '../../../core/pause';
import type { Repos } from '../../../store/types';
import { publishZoneChange } from '../zone-messages';
import { lockInOrder, openUpdate, type LockedZones } from './open';
import type { Applied, ChangeSetDeps, Committed, UpdateJob, WriteOptions } from './types';

interface Done<T> {
  committed: Committed;
  result: T;
}

/** Thrown at the end of a dry run, to roll it back with what it would have written. */
class DryRun<T> extends Error {
  constructor(readonly done: readonly Done<T>[]) {
    super('dry run');
  }
}

/** Runs every job as its own change set, all in one transaction; answers in the order of the jobs. */
export async function runUpdates<T>(deps: ChangeSetDeps, jobs: readonly UpdateJob<T>[], opts: WriteOptions): Promise<Applied<T>[]> {
  // One clock for all the change's long loops: the event loop turns every SLICE_MS, whichever loop runs.
  const slice = slicer(opts.signal);
  let done: Done<T>[];
  try {
    // A client gone already is not worth taking the write lock for.
    await slice();
    done = await deps.store.transaction(async (tx) => {
      const locked =
        jobs.length > 1
          ? await lockInOrder(
              tx,
              jobs.map((j) => j.target),
            )
          : undefined;
      const out: Done<T>[] = [];
      for (const job of jobs) {
        try {
          out.push(await runJob(tx, deps, job, opts, slice, locked));
        } catch (e) {
          throw job.fail && !(e instanceof ClientGone) ? job.fail(e) : e;
        }
      }
      // The last moment to stop: a client gone during the writes has them rolled back.
      if (opts.signal?.aborted) throw new ClientGone();
      if (opts.dryRun) throw new DryRun(out);
      // Every other node's DNS hears of it when, and only if, this commits.
      for (const { committed: c } of out) if (c.change.id !== null) await publishZoneChange(tx, deps.events, { kind: 'zone-changed', domain: c.zone, names: c.names, keys: c.keys });
      return out;
    });
  } catch (e) {
    if (e instanceof DryRun) return (e.done as Done<T>[]).map(({ committed: c, result }) => ({ change: { ...c.change, id: null }, zone: c.zone, result }));
    throw e;
  }
  for (const { committed: c } of done) if (c.change.id !== null) deps.events.emit({ kind: 'zone-changed', domain: c.zone, names: c.names, keys: c.keys });
  for (const { committed: c } of done) if (c.change.id !== null) deps.hooks?.committed?.(c.zone, c.change);
  return done.map(({ committed: c, result }) => ({ change: c.change, zone: c.zone, result }));
}

/** One zone's change set: open, edit, and commit unless the edit did. */
async function runJob<T>(tx: Repos, deps: ChangeSetDeps, job: UpdateJob<T>, opts: WriteOptions, slice: Slicer, locked?: LockedZones): Promise<Done<T>> {
  const update = await openUpdate(tx, job.target, opts, { options: deps.options, slice, locked });
  const result = await job.edit(update);
  return { committed: update.committed ?? (await update.commit()), result };
}
