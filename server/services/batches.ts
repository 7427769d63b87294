/**
 * Work across zones as one batch (DESIGN.md §22): one change set per zone, all under one batch
 * id. Every zone's change is tried first as a dry run, so a batch that would fail anywhere
 * changes nothing; a batch is reverted as one, refused (409 naming the zones) when any of its
 * zones changed since.
 */
import { randomUUID } from 'node:crypto';
import { allowsZone, type Scope } from '../core/scope';
import { Conflict, Forbidden, Invalid, NotFound, PreconditionFailed, ZonedeckError } from '../core/errors';
import type { DomainRow, Repos, Store } from '../store/types';
import { roleOn } from './access';
import type { ChangeSet, ChangeSets, Edit, WriteOptions } from './change-sets';
import type { Zones } from './zones';

/** Most zones one batch may change. */
export const MAX_BATCH_ZONES = 500;

/** One zone's part of a batch: what to change, and what to do in the same transaction after. */
export interface ZoneJob {
  zone: DomainRow;
  build: (edit: Edit) => Promise<void> | void;
  after?: (tx: Repos, zone: DomainRow, change: ChangeSet) => Promise<void>;
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

export function createBatches(store: Store, changes: ChangeSets, zones: Zones) {
  const locate = (userId: number, zone: DomainRow) => (tx: Repos) => zones.owned(userId, { zone, base: '@' }, tx);

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
      const preview = [];
      for (const job of jobs) {
        try {
          const { change } = await changes.apply(locate(userId, job.zone), { ...opts, dryRun: true }, job.build);
          preview.push({ zone: job.zone.name, change });
        } catch (e) {
          throw inZone(job.zone.name, e);
        }
      }
      if (opts.dryRun) return { batch: null, zones: preview };
      const batch = randomUUID();
      const done: BatchResult['zones'] = [];
      for (const job of jobs) {
        try {
          const { change } = await changes.apply(locate(userId, job.zone), { ...opts, batch }, job.build, job.after && ((tx, zone, change) => job.after!(tx, zone, change)));
          done.push({ zone: job.zone.name, change });
        } catch (e) {
          // Changed between the dry run and now: what was applied stays, and can be reverted as the batch.
          const applied = done.filter((d) => d.change.id !== null).map((d) => d.zone);
          if (applied.length === 0) throw inZone(job.zone.name, e);
          throw new Conflict(`${job.zone.name}: ${e instanceof Error ? e.message : String(e)}; batch ${batch} changed ${applied.join(', ')} before it and stopped there (POST /batches/${batch}/revert undoes it)`);
        }
      }
      return { batch, zones: done };
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
      const done: BatchResult['zones'] = [];
      for (const { zone, row } of [...rows].reverse()) {
        try {
          done.push({ zone: zone.name, change: (await changes.revert(locate(userId, zone), row.id, { ...opts, comment, batch: next })).change });
        } catch (e) {
          throw inZone(zone.name, e);
        }
      }
      return { batch: next, zones: done };
    },
  };
}

export type Batches = ReturnType<typeof createBatches>;
