/**
 * Work across zones as one batch: one change set per zone, all under one batch
 * id, all written in one transaction: a batch changes every zone or none. Every zone's change is
 * tried first as a dry run, so a batch that would fail anywhere answers why, naming the zone; a
 * zone that changes between that preview and the write fails the whole batch with a 409 naming
 * it. A batch is reverted as one, refused (409 naming the zones) when any of its zones changed since.
 */
import { randomUUID } from 'node:crypto';
import { allowsZone, type Scope } from '../../core/scope';
import { Conflict, Forbidden, Invalid, NotFound, PreconditionFailed, ZonedeckError } from '../../core/errors';
import type { DomainRow, ServiceRepos, ServiceStore } from '../../store/types';
import { roleOn } from '../zones/access';
import type { ChangeSet, ChangeSets, Edit, WriteOptions } from '../changes/change-sets';
import type { Zones } from '../zones/zones';

/** Most zones one batch may change. */
export const MAX_BATCH_ZONES = 500;

/** One zone's part of a batch: what to change, and what to do in the same transaction after. */
export interface ZoneJob {
  zone: DomainRow;
  build: (edit: Edit) => Promise<void> | void;
  after?: (tx: ServiceRepos, zone: DomainRow, change: ChangeSet) => Promise<void>;
}

export interface BatchResult {
  /** Null for a dry run (nothing written). */
  batch: string | null;
  zones: Array<{ zone: string; change: ChangeSet }>;
}

/** The error of one zone of a batch, naming the zone in its message and fields. */
function inZone(zone: string, e: unknown): unknown {
  if (!(e instanceof ZonedeckError)) return e;
  const fields = e.fields && Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [`${zone}: ${k}`, v]));
  const message = `${zone}: ${e.message}`;
  if (e instanceof Invalid) return new Invalid(fields ?? { [zone]: e.message }, message);
  if (e instanceof Conflict) return new Conflict(message, fields);
  if (e instanceof Forbidden) return new Forbidden(message, fields);
  if (e instanceof PreconditionFailed) return new PreconditionFailed(message, fields);
  if (e instanceof NotFound) return new NotFound(message, fields);
  return e;
}

export function createBatches(store: ServiceStore, changes: ChangeSets, zones: Zones) {
  const locate = (userId: number, zone: DomainRow) => (tx: ServiceRepos) => zones.owned(userId, { zone, base: '@' }, tx);

  /** The change sets of a batch in the zones the user (and their credential's scope) may read; NotFound when none. */
  async function visible(userId: number, scope: Scope | undefined, batch: string) {
    const rows = batch.length <= 64 ? await store.changes.ofBatch(batch) : [];
    const out = [];
    for (const row of rows) {
      const zone = await store.domains.byId(row.domain_id);
      if (zone && (await roleOn(store, userId, zone)) && (!scope || allowsZone(scope, zone.name))) out.push({ row, zone });
    }
    if (out.length === 0) throw new NotFound(`no batch ${batch}`);
    return out;
  }

  return {
    /** Applies every job as its own change set under one new batch id (a dry run first: all or nothing). */
    async run(userId: number, jobs: readonly ZoneJob[], given: WriteOptions): Promise<BatchResult> {
      // One If-Match cannot name the serials of many zones.
      const opts = { ...given, ifMatch: undefined };
      if (jobs.length > MAX_BATCH_ZONES) throw Invalid.field('zones', `a batch changes at most ${MAX_BATCH_ZONES} zones; this one would change ${jobs.length}`);
      const tried = (job: ZoneJob) => ({ locate: locate(userId, job.zone), build: job.build, after: job.after, fail: (e: unknown) => inZone(job.zone.name, e) });
      // The preview: every zone's change set, all rolled back; a zone that would fail fails it, naming the zone.
      const preview = (await changes.applyMany(jobs.map(tried), { ...opts, dryRun: true })).map((a, i) => ({ zone: jobs[i]!.zone.name, change: a.change }));
      if (opts.dryRun) return { batch: null, zones: preview };
      const batch = randomUUID();
      // Every zone's change set in one transaction: a zone that changed since the preview (or fails
      // now for any reason) rolls back all of them, so the batch changes nothing or everything.
      const written = await changes.applyMany(
        jobs.map((job) => ({
          ...tried(job),
          fail: (e: unknown) => {
            // A database that does not answer or a full disk says nothing of the zone.
            if (!(e instanceof ZonedeckError) || e.status >= 500) return e;
            const why = e.message;
            return new Conflict(`${job.zone.name} changed since the preview (${why}); nothing was changed: preview the batch again`, { [job.zone.name]: why });
          },
        })),
        { ...opts, batch },
      );
      return { batch, zones: written.map((a, i) => ({ zone: jobs[i]!.zone.name, change: a.change })) };
    },

    /** The change sets of a batch, by zone. */
    async get(userId: number, scope: Scope | undefined, batch: string) {
      const rows = await visible(userId, scope, batch);
      const out = [];
      for (const { zone, row } of rows) out.push({ zone: zone.name, change: await changes.get(zone, row.id) });
      return out;
    },

    /**
     * Reverts every change set of a batch (in the zones the user may reach) as a new batch; 409
     * naming the zones whose records changed since, and nothing applied.
     */
    async revert(userId: number, scope: Scope | undefined, batch: string, given: Omit<WriteOptions, 'source'>): Promise<BatchResult> {
      const opts = { ...given, ifMatch: undefined };
      const rows = await visible(userId, scope, batch);
      const comment = opts.comment || `revert of batch ${batch}`;
      const conflicts: Record<string, string> = {};
      const preview: BatchResult['zones'] = [];
      // Newest first, so that a zone a batch changed twice is undone in order.
      for (const { zone, row } of [...rows].reverse()) {
        try {
          preview.push({ zone: zone.name, change: (await changes.revert(locate(userId, zone), row.id, { ...opts, comment, dryRun: true })).change });
        } catch (e) {
          if (e instanceof Conflict) conflicts[zone.name] = e.message;
          else throw inZone(zone.name, e);
        }
      }
      const names = Object.keys(conflicts);
      if (names.length > 0) throw new Conflict(`batch ${batch} cannot be reverted: ${names.join(', ')} changed since`, conflicts);
      if (opts.dryRun) return { batch: null, zones: preview };
      const next = randomUUID();
      // All the zones' reverts in one transaction: a zone that changed since the check above undoes none.
      const ordered = [...rows].reverse();
      const reverted = await changes.applyMany(
        ordered.map(({ zone, row }) => ({
          locate: locate(userId, zone),
          build: changes.revertBuild(row.id, { ...opts, comment }),
          fail: (e: unknown) =>
            e instanceof Conflict ? new Conflict(`batch ${batch} cannot be reverted: ${zone.name} changed since; nothing was changed`, { [zone.name]: e.message }) : inZone(zone.name, e),
        })),
        { ...opts, source: 'revert', comment, batch: next },
      );
      const done: BatchResult['zones'] = reverted.map((a, i) => ({ zone: ordered[i]!.zone.name, change: a.change }));
      return { batch: next, zones: done };
    },
  };
}

export type Batches = ReturnType<typeof createBatches>;
