/**
 * The one write path of zone data. Every change to a zone — a record, an
 * RRset, SOA timers, DNSSEC, an import, an RFC 2136 update, a revert — is a change set
 * applied here, in one transaction: lock the zone, check If-Match, let the caller edit a
 * draft of the zone, validate the zone as it will be, write, bump the serial once, append the
 * change set to the zone's history, and after the commit emit one zone event. A dry run does
 * all of it and rolls back.
 *
 * This module alone holds the zone writer (`Store`, whose transaction writes records, zone
 * rows, keys and history); every other service gets a `ServiceStore` without it, and the
 * layers above a `ReadStore` (store/types.ts). Builders and `locate` see the transaction as a
 * `ServiceRepos`: a zone comes into being by returning a `ZoneToBe`, not by writing it.
 */
import { APEX } from '../../core/domain-name';
import type { Role } from '../../core/roles';
import { isRestricted, recordRefusal, zoneRefusal, type Scope } from '../../core/scope';
import { ClientGone, Conflict, Forbidden, NotFound, PreconditionFailed } from '../../core/errors';
import { slicer, type Slicer } from '../../core/pause';
import { nextSerial, SOA_FIELDS } from '../../core/soa';
import type { ChangeEntryRow, ChangeFilter, ChangeSetRow, DomainRow, NewRow, Page, RecordRow, Repos, ServiceRepos, Store, Window } from '../../store/types';
import type { DeletedZoneRow } from '../../store/deleted-zone-types';
import { roleOn, roleRecordRefusal, roleZoneRefusal } from '../zones/access';
import { newCsk } from '../zones/dnssec-keys';
import type { ZoneEvents } from './events';
import { publishZoneChange } from './zone-messages';
import { crudBlame, historyEntries, ZoneDraft, type Blame, type Entry, type RecordData } from './zone-draft';

export const SOURCES = ['api', 'dashboard', 'cli', 'rfc2136', 'import', 'revert', 'pdns', 'dnssec', 'alias'] as const;
export type Source = (typeof SOURCES)[number];

/** Who makes a change: the user and the credential they used (`token:<id>`, `session`, `tsig:<key>`, `cli`). */
export interface Actor {
  username: string;
  credential: string;
  /**
   * The acting user (absent for the admin CLI, which acts as the zone's owner): on a team's zone
   * their role is judged here too, on the locked row: a viewer changes nothing,
   * an editor records only.
   */
  userId?: number;
  /**
   * The credential's scope; absent or empty: unrestricted. Judged here, on
   * the zone row the change locked: every RRset it touches, and any setting or key it changes.
   */
  scope?: Scope;
}

/** What the admin CLI (and code acting for it) writes as: the zone owner, credential `cli`. */
export const CLI_WRITE: WriteOptions = { source: 'cli', actor: { username: '', credential: 'cli' } };

export interface WriteOptions {
  source: Source;
  actor: Actor;
  comment?: string;
  /** The serial the writer last saw (If-Match); '*' or absent: any. */
  ifMatch?: number | '*';
  dryRun?: boolean;
  /** The batch (one apply across zones) this change set belongs to. */
  batch?: string;
  /**
   * The request's signal: once its client has gone, the change stops at its next yield point,
   * and before its commit, writing nothing (ClientGone). Absent: it runs to the end.
   */
  signal?: AbortSignal;
}

/** The zone settings a change set can change besides records. */
export interface Settings {
  refresh_interval: number;
  retry_interval: number;
  expire_interval: number;
  minimum_ttl: number;
  dnssec_enabled: boolean;
}

export const SETTING_FIELDS = [...SOA_FIELDS, 'dnssec_enabled'] as const;

/** Key changes that are not a setting: a CSK rollover's two steps (RFC 6781 §4.1.2). */
export type KeyStep = 'rollover-start' | 'rollover-finish';

/** A change set as the API shows it. */
export interface ChangeSet {
  id: number | null;
  serial_before: number;
  serial_after: number;
  created_at: string;
  source: Source;
  actor: { username: string; credential: string };
  comment: string;
  added: RecordData[];
  removed: RecordData[];
  settings: Record<string, [unknown, unknown]>;
  /** The batch it belongs to; absent for a change of one zone alone. */
  batch?: string;
}

/** What a builder gets: the draft of the zone, the settings to change, and the transaction (without its zone writer). */
export interface Edit {
  draft: ZoneDraft;
  zone: DomainRow;
  tx: ServiceRepos;
  settings: Partial<Settings>;
  keys?: KeyStep;
  /** The time of the change (serial date, updated_at, history). */
  now: Date;
  /** Bump the serial even though nothing else changes (re-signing). */
  touch?: boolean;
  /** Maps a broken rule at a name and type to the field the caller sent (record CRUD's fields by default). */
  blame?: Blame;
  /** A builder's yield point between items of a long loop (the same as the draft's: it lets the event loop turn, and stops when the client is gone). */
  slice: Slicer;
}

export interface Applied<T> {
  change: ChangeSet;
  zone: DomainRow;
  result: T;
}

class DryRun<T> extends Error {
  constructor(readonly applied: readonly Applied<T>[]) {
    super('dry run');
  }
}

/**
 * A zone the change set brings into being, in its transaction: a new one from this row
 * (`create`), or a deleted one from the archive (`restore`, its id). The catalog zone's serial
 * moves on with it (RFC 9432).
 */
export type ZoneToBe = { create: NewRow<DomainRow> } | { restore: number };

/** Finds (inside the transaction) the zone a change set is for, or names the zone it creates. */
export type Locate = (tx: ServiceRepos, now: Date) => Promise<DomainRow | ZoneToBe>;

/** After the writes: with the rows the change inserted (e.g. to answer with a new record's id). */
export type After<T> = (tx: ServiceRepos, zone: DomainRow, change: ChangeSet, inserted: readonly RecordRow[]) => Promise<T>;

/** What becomes of a zone's row outside any change set (`alterZone`): a new owner, or deletion. */
export type ZoneAlteration<T> =
  | { owner: { user_id: number; team_id: number | null }; result: T }
  /** Deleted; unless `discard`, archived for `days` first, and `archived` runs with the archive in the same transaction. */
  | { remove: { discard: true } | { deletedBy: string; days: number; archived: (tx: ServiceRepos, row: DeletedZoneRow) => Promise<unknown> }; result: T };

/** One zone's change of a change applied across zones (`applyMany`): as `apply`'s arguments. */
export interface ZoneChangeJob<T = void> {
  locate: Locate;
  build: (edit: Edit) => Promise<void> | void;
  after?: After<T>;
  /** What to throw instead when this zone's change fails (e.g. the error naming the zone). */
  fail?: (e: unknown) => unknown;
}

export interface ChangeSetOptions {
  /** Most records one zone may hold (MAX_RECORDS_PER_ZONE). */
  maxRecords: number;
  /** Whether RESOLVER is set, so that the DNS server can resolve ALIAS targets (else a new ALIAS is refused). */
  aliasResolver?: boolean;
  /** ALIAS_DENY: suffixes no ALIAS target may lie under, besides the special-use names. */
  aliasDeny?: readonly string[];
}

/** Rows written per statement batch between two yield points: a few tens of milliseconds of SQLite. */
const WRITE_SLICE = 256;

export function createChangeSets(store: Store, events: ZoneEvents, options: ChangeSetOptions) {
  /**
   * Applies one change set to the zone `locate` finds (inside the transaction). `build` edits
   * `edit.draft` / `edit.settings`; `after` runs once the writes are done, with the rows the
   * change inserted (e.g. to answer with a new record's id). Returns the change set (id null for a dry run or a change that changes nothing).
   */
  async function apply<T = void>(locate: Locate, opts: WriteOptions, build: (edit: Edit) => Promise<void> | void, after?: After<T>): Promise<Applied<T>> {
    const [applied] = await applyMany([{ locate, build, after }], opts);
    return applied!;
  }

  /** One zone's change set inside the caller's transaction: lock, If-Match, build, validate, write, `after`. */
  async function applyIn<T>(tx: Repos, job: ZoneChangeJob<T>, given: WriteOptions, slice: Slicer): Promise<Applied<T> & { names: string[]; keys: boolean }> {
    let opts = given;
    const now = new Date();
    const zone = await tx.domains.lock(await bring(tx, await job.locate(tx, now), now));
    const role = opts.actor.userId === undefined ? 'owner' : await roleOn(tx, opts.actor.userId, zone);
    if (!role) throw new NotFound(`no domain named ${zone.name}`);
    // A change made for a user with no credential of theirs (the admin CLI) is theirs.
    if (opts.actor.username === '') opts = { ...opts, actor: { ...opts.actor, username: (await tx.users.byId(zone.user_id))?.username ?? '' } };
    if (opts.ifMatch !== undefined && opts.ifMatch !== '*' && opts.ifMatch !== zone.serial_number) {
      throw new PreconditionFailed(`${zone.name} has changed: its serial is ${zone.serial_number}, not ${opts.ifMatch}; reload it and try again`, {
        'If-Match': `the zone is at serial ${zone.serial_number}`,
      });
    }
    const draft = new ZoneDraft(tx, zone, { aliasResolver: options.aliasResolver ?? false, aliasDeny: options.aliasDeny, slice });
    const edit: Edit = { draft, zone, tx, settings: {}, now, slice };
    await job.build(edit);
    const out = await write(tx, zone, edit, opts, role);
    const result = job.after ? await job.after(tx, out.zone, out.change, out.inserted) : (undefined as T);
    return { ...out, result };
  }

  /**
   * Applies one change set per job, every one in ONE transaction (a batch across
   * zones): a job that fails rolls back all of them, so nothing is changed. The zone events go out
   * only after the commit (and the other nodes hear of each zone when, and only if, it commits).
   * With `dryRun`, all of it is done and rolled back. Answers in the order of the jobs.
   */
  async function applyMany<T = void>(jobs: readonly ZoneChangeJob<T>[], opts: WriteOptions): Promise<Applied<T>[]> {
    let applied: Array<Applied<T> & { names: string[]; keys: boolean }>;
    // One clock for all the change's long loops: the event loop turns every SLICE_MS, whichever loop runs.
    const slice = slicer(opts.signal);
    try {
      // A client gone already is not worth taking the write lock for.
      await slice();
      applied = await store.transaction(async (tx) => {
        const done = [];
        // Several zones: lock them all first, in id order, so that two batches over the same zones
        // given in opposite orders wait for each other instead of deadlocking (PostgreSQL row locks).
        // A zone that cannot be found here fails below, in its job, with its own error.
        if (jobs.length > 1) {
          const now = new Date();
          const rows: DomainRow[] = [];
          for (const job of jobs) rows.push(...(await job.locate(tx, now).then((r) => ('id' in r ? [r] : []), () => [])));
          for (const row of rows.sort((a, b) => a.id - b.id)) await tx.domains.lock(row);
        }
        for (const job of jobs) {
          try {
            done.push(await applyIn(tx, job, opts, slice));
          } catch (e) {
            throw job.fail && !(e instanceof DryRun) && !(e instanceof ClientGone) ? job.fail(e) : e;
          }
        }
        // The last moment to stop: a client gone during the writes has them rolled back.
        if (opts.signal?.aborted) throw new ClientGone();
        if (opts.dryRun) throw new DryRun(done);
        // Every other node's DNS hears of it when, and only if, this commits.
        for (const out of done) if (out.change.id !== null) await publishZoneChange(tx, events, { kind: 'zone-changed', domain: out.zone, names: out.names, keys: out.keys });
        return done;
      });
    } catch (e) {
      if (e instanceof DryRun) return (e.applied as Applied<T>[]).map((a) => ({ change: { ...a.change, id: null }, zone: a.zone, result: a.result }));
      throw e;
    }
    for (const a of applied) if (a.change.id !== null) events.emit({ kind: 'zone-changed', domain: a.zone, names: a.names, keys: a.keys });
    return applied.map((a) => ({ change: a.change, zone: a.zone, result: a.result }));
  }

  /**
   * The credential's scope on this change: every RRset it adds or removes (a
   * delegation or DNAME needs the subtree below it too), and no setting, key or re-signing for
   * a credential limited to names or types. Forbidden, and nothing applied, otherwise.
   */
  function guard(scope: Scope, zone: DomainRow, w: { added: readonly RecordData[]; removed: readonly RecordData[] }, settings: Record<string, unknown>, edit: Edit): void {
    const touched = [...Object.keys(settings), ...(edit.keys ? ['dnssec_keys'] : [])];
    if (touched.length > 0 || edit.touch) {
      const why = zoneRefusal(scope, zone.name, `the zone's settings (${touched.join(', ') || 'its signatures'})`);
      if (why) throw new Forbidden(why);
    }
    const seen = new Set<string>();
    for (const r of [...w.added, ...w.removed]) {
      const k = `${r.name} ${r.record_type}`;
      if (seen.has(k)) continue;
      seen.add(k);
      const why = recordRefusal(scope, zone.name, r.name, r.record_type);
      if (why) throw new Forbidden(why);
    }
  }

  /** The member's role on this change: a viewer changes nothing, an editor records only. */
  async function guardRole(tx: Repos, zone: DomainRow, role: Role, w: { added: readonly RecordData[]; removed: readonly RecordData[] }, settings: Record<string, unknown>, edit: Edit): Promise<void> {
    const touched = [...Object.keys(settings), ...(edit.keys ? ['dnssec_keys'] : [])];
    if (touched.length > 0 || edit.touch) {
      const why = await roleZoneRefusal(tx, zone, role, `the zone's settings (${touched.join(', ') || 'its signatures'})`);
      if (why) throw new Forbidden(why);
    }
    for (const r of [...w.added, ...w.removed]) {
      const why = await roleRecordRefusal(tx, zone, role, r.name, r.record_type);
      if (why) throw new Forbidden(why);
    }
  }

  async function write(tx: Repos, zone: DomainRow, edit: Edit, opts: WriteOptions, role: Role) {
    const { draft } = edit;
    const now = edit.now;
    const at = now.toISOString();
    const w = await draft.writes(at);
    const settings: Record<string, [unknown, unknown]> = {};
    for (const f of SETTING_FIELDS) {
      const v = edit.settings[f];
      if (v !== undefined && v !== zone[f]) settings[f] = [zone[f], v];
    }
    // Scope first: a credential that may not write here learns nothing from the zone's rules.
    const scope = opts.actor.scope;
    if (scope && isRestricted(scope)) guard(scope, zone, w, settings, edit);
    if (role === 'editor' || role === 'viewer') await guardRole(tx, zone, role, w, settings, edit);
    await draft.validate(edit.blame ?? crudBlame);
    let keysChanged = settings.dnssec_enabled !== undefined;
    if (edit.keys) {
      const before = (await tx.dnssecKeys.publicKeys([zone.id])).map((k) => k.key_tag);
      settings.dnssec_keys = [before.join(' '), edit.keys === 'rollover-start' ? 'rollover started' : 'rollover finished'];
      keysChanged = true;
    }
    const base = { serial_before: zone.serial_number, created_at: at, source: opts.source, actor: { username: opts.actor.username, credential: opts.actor.credential }, comment: opts.comment ?? '' };
    if (w.added.length === 0 && w.removed.length === 0 && Object.keys(settings).length === 0 && !edit.touch) {
      return { zone, change: { id: null, ...base, serial_after: zone.serial_number, added: [], removed: [], settings }, names: [], keys: false, inserted: [] };
    }
    const growth = w.inserts.length - w.deletes.length;
    const tooMany = (before: number) => {
      const now = before >= options.maxRecords ? `already holds ${before} records` : `would hold ${before + growth} records`;
      return new Forbidden(`${zone.name} ${now}; ${options.maxRecords} is the most one zone may have (MAX_RECORDS_PER_ZONE)`);
    };
    // The serial bump below checks the limit for every change that grows the zone; a bulk one
    // (a PATCH, an import) reads the count first, so that a zone too full for it is spared its writes.
    if (growth > 1) {
      const before = await tx.records.zoneCount(zone.id);
      if (before + growth > options.maxRecords) throw tooMany(before);
    }

    // Deletes first, so that a CNAME may replace other data (and content move) within one change.
    // In slices, each short enough that the event loop turns between them (SQLite runs each
    // statement on this thread); a client gone meanwhile stops it, and the transaction rolls back.
    for (let i = 0; i < w.deletes.length; i += WRITE_SLICE) {
      await edit.slice();
      await tx.records.deleteMany(w.deletes.slice(i, i + WRITE_SLICE));
    }
    for (const u of w.updates) {
      await edit.slice();
      await tx.records.update(u.id, u.patch);
    }
    const inserted: RecordRow[] = [];
    for (let i = 0; i < w.inserts.length; i += WRITE_SLICE) {
      await edit.slice();
      inserted.push(...(await tx.records.insertMany(w.inserts.slice(i, i + WRITE_SLICE))));
    }
    await edit.slice();

    const serial = nextSerial(zone.serial_number, now);
    const patch: Partial<Settings> = {};
    for (const f of SETTING_FIELDS) if (settings[f]) (patch as Record<string, unknown>)[f] = settings[f]![1];
    // The DNS server publishes the CDS/CDNSKEY delete form for a while after DNSSEC goes off (RFC 8078 §4).
    const disabled = settings.dnssec_enabled ? { dnssec_disabled_at: patch.dnssec_enabled ? null : at } : {};
    const zonePatch = { ...patch, ...disabled, serial_number: serial, updated_at: at };
    // A change that grows the zone bumps the serial only while the zone, with it, holds at most
    // MAX_RECORDS_PER_ZONE records; else it is refused whole (the transaction rolls back).
    const updated = growth > 0 ? await tx.domains.update(zone, zonePatch, { recordsAtMost: options.maxRecords }) : await tx.domains.update(zone, zonePatch);
    if (!updated) throw tooMany((await tx.records.zoneCount(zone.id)) - growth);
    // DNSSEC off removes every key; on makes a new one (an old key is never brought back).
    if (settings.dnssec_enabled) {
      await tx.dnssecKeys.deleteByDomain(zone.id);
      if (updated.dnssec_enabled) await tx.dnssecKeys.insert(newCsk(zone.id, zone.name, at));
    }
    if (edit.keys === 'rollover-start') await tx.dnssecKeys.insert(newCsk(zone.id, zone.name, at));
    if (edit.keys === 'rollover-finish') {
      const keys = await tx.dnssecKeys.signingKeys(zone.id);
      for (const k of keys.slice(0, -1)) await tx.dnssecKeys.delete(k.id);
    }

    const row = await tx.changes.insert(
      {
        domain_id: zone.id,
        serial_before: zone.serial_number,
        serial_after: serial,
        created_at: at,
        source: opts.source,
        actor_username: opts.actor.username,
        actor_credential: opts.actor.credential,
        comment: opts.comment ?? '',
        settings: JSON.stringify(settings),
        added_count: w.added.length,
        removed_count: w.removed.length,
      },
      historyEntries(w),
    );
    if (opts.batch) await tx.changes.setBatch(row.id, opts.batch);
    return { zone: updated, change: { ...base, ...(opts.batch ? { batch: opts.batch } : {}), id: row.id, serial_after: serial, added: w.added, removed: w.removed, settings }, names: w.names, keys: keysChanged, inserted };
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
   * A zone's row changes outside any change set: it moves to another owner, or it is deleted
   * (archived first, unless discarded). `locate` finds it, the row is locked, `decide` judges the
   * locked row and says what becomes of it; DNS and the other nodes hear of it after the commit.
   */
  async function alterZone<T>(locate: (tx: ServiceRepos) => Promise<DomainRow>, decide: (tx: ServiceRepos, zone: DomainRow) => Promise<ZoneAlteration<T>>): Promise<{ zone: DomainRow; result: T; deleted: boolean }> {
    const out = await store.transaction(async (tx) => {
      const zone = await tx.domains.lock(await locate(tx));
      const what = await decide(tx, zone);
      if ('owner' in what) {
        const moved = await tx.domains.setOwner(zone, what.owner);
        await publishZoneChange(tx, events, { kind: 'zone-changed', domain: moved, names: [], keys: false });
        return { zone: moved, result: what.result, deleted: false };
      }
      if (!('discard' in what.remove)) {
        const now = new Date();
        const row = await tx.deletedZones.archive(zone, { deleted_at: now.toISOString(), deleted_by: what.remove.deletedBy, expires_at: new Date(now.getTime() + what.remove.days * 86_400_000).toISOString() });
        await what.remove.archived(tx, row);
      }
      await tx.domains.delete(zone.id);
      await tx.catalog.bump(new Date());
      await publishZoneChange(tx, events, { kind: 'zone-deleted', domain: zone });
      return { zone, result: what.result, deleted: true };
    });
    events.emit(out.deleted ? { kind: 'zone-deleted', domain: out.zone } : { kind: 'zone-changed', domain: out.zone, names: [], keys: false });
    return out;
  }

  return {
    apply,
    applyMany,
    alterZone,

    /**
     * Records what the delegation check found (`delegated`): a flag of the zone's
     * row that nothing served depends on, so no serial and no history; unchanged rows are not written.
     */
    async markDelegated(domainId: number, delegated: boolean): Promise<void> {
      await store.transaction(async (tx) => {
        const zone = await tx.domains.byId(domainId);
        if (zone && zone.delegated !== delegated) await tx.domains.update(zone, { delegated });
      });
    },

    /** Removes the deleted zones whose time is up (the hourly pruning); returns how many. */
    purgeDeleted: (now = new Date()) => store.deletedZones.purge(now.toISOString()),

    /** A zone's change sets, newest first; each with at most `limit` records of each side. */
    async page(zone: DomainRow, filter: ChangeFilter, w: Window, limit = 1000): Promise<Page<ChangeSet & { added_count: number; removed_count: number }>> {
      const page = await store.changes.page(zone.id, filter, w);
      // Small change sets in one query; a big one (an import) shows the first `limit` of each side.
      const small = page.rows.filter((r) => r.added_count <= limit && r.removed_count <= limit);
      const entries = await store.changes.entriesOf(small.map((r) => r.id));
      const rows = [];
      for (const row of page.rows) {
        const list = entries.get(row.id) ?? [...(await store.changes.entries(row.id, limit, 0)), ...(await store.changes.entries(row.id, limit, 1))];
        rows.push(view(row, list));
      }
      return { rows, total: page.total };
    },

    async get(zone: DomainRow, id: number): Promise<ChangeSet & { added_count: number; removed_count: number }> {
      const row = await store.changes.byId(zone.id, id);
      if (!row) throw new NotFound(`no change ${id} in ${zone.name}`);
      return view(row, await store.changes.entries(row.id));
    },

    /**
     * Reverts a change set by applying its inverse as a new one (source `revert`). Refused
     * with a 409 naming them when records or settings it touched have changed since.
     */
    revert(locate: Locate, id: number, opts: Omit<WriteOptions, 'source'>) {
      return apply(locate, { ...opts, source: 'revert', comment: opts.comment ?? `revert of change ${id}` }, revertBuild(id, opts));
    },

    /** The edit that reverts change `id` (as `revert` applies it), for a revert across zones in one transaction (`applyMany`). */
    revertBuild,

    /** Removes change sets older than `days` days; returns how many. */
    prune: (days: number, now = new Date()) => store.changes.prune(new Date(now.getTime() - days * 86_400_000).toISOString()),
  };

  function revertBuild(id: number, opts: Omit<WriteOptions, 'source'>) {
    return async ({ draft, zone, tx, settings, slice }: Edit) => {
      const row = await tx.changes.byId(zone.id, id);
      if (!row) throw new NotFound(`no change ${id} in ${zone.name}`);
      const cs = view(row, await tx.changes.entries(row.id));
      // A credential that may not change settings is told so before whether the revert would conflict.
      const touched = Object.keys(cs.settings);
      const why = touched.length > 0 && opts.actor.scope ? zoneRefusal(opts.actor.scope, zone.name, `the zone's settings (${touched.join(', ')})`) : null;
      if (why) throw new Forbidden(why);
      if (row.serial_before === 0) throw new Conflict(`change ${id} created the zone; delete the zone instead`);
      if (cs.settings.dnssec_keys) throw new Conflict(`change ${id} was a DNSSEC key rollover, which cannot be reverted; use npm run cli -- dnssec rollover`);
      await draft.load(new Set([...cs.added, ...cs.removed].map((r) => r.name)));
      const key = (r: { name: string; record_type: string }) => `${r.name === APEX ? '@' : r.name} ${r.record_type}`;
      const conflicts = new Map<string, string>();
      // Every reason per RRset, not just the last one.
      const note = (k: string, why: string) => conflicts.set(k, conflicts.has(k) ? `${conflicts.get(k)}; ${why}` : why);
      const addedContent = new Set(cs.added.map((r) => `${key(r)} ${r.content}`));
      const state = (disabled: boolean | undefined) => (disabled ? ' (disabled)' : '');
      // Each RRset as it is now, by content (a set holds each content once), read once per RRset.
      const present = new Map<string, Map<string, Entry>>();
      const entry = (r: RecordData) => {
        let set = present.get(key(r));
        if (!set) present.set(key(r), (set = new Map(draft.rrset(r.name, r.record_type).map((e) => [e.content, e]))));
        return set.get(r.content);
      };
      for (const r of cs.added) {
        await slice();
        const e = entry(r);
        if (!e || e.ttl !== r.ttl || !e.disabled !== !r.disabled) note(key(r), `${r.content} (TTL ${r.ttl})${state(r.disabled)} is no longer there as change ${id} left it`);
      }
      for (const r of cs.removed) {
        await slice();
        if (addedContent.has(`${key(r)} ${r.content}`)) continue;
        if (entry(r)) note(key(r), `${r.content} has been added again since change ${id}`);
      }
      for (const [field, [, after]] of Object.entries(cs.settings)) {
        if (zone[field as keyof Settings] !== after) note(field, `is ${String(zone[field as keyof Settings])} now, not ${String(after)} as change ${id} left it`);
      }
      if (conflicts.size > 0) {
        throw new Conflict(`change ${id} cannot be reverted: ${[...conflicts.keys()].join(', ')} changed since`, Object.fromEntries(conflicts));
      }
      // The inverse, RRset by RRset: what it added goes, what it removed comes back. Grouped once,
      // not filtered per RRset: a template's change set holds as many RRsets as records.
      const sets = new Map<string, { name: string; type: string; added: Set<string>; restored: RecordData[] }>();
      const setOf = (r: RecordData) => {
        let set = sets.get(key(r));
        if (!set) sets.set(key(r), (set = { name: r.name, type: r.record_type, added: new Set(), restored: [] }));
        return set;
      };
      for (const r of cs.added) setOf(r).added.add(r.content);
      for (const r of cs.removed) setOf(r).restored.push(r);
      for (const { name, type, added, restored } of sets.values()) {
        await slice();
        const kept = draft.rrset(name, type).filter((e) => !added.has(e.content));
        const ttl = restored[0]?.ttl ?? kept[0]?.ttl ?? 0;
        draft.put(name, type, [...kept, ...restored.map((r) => ({ content: r.content, ttl: r.ttl, disabled: r.disabled }))], ttl);
      }
      for (const [field, [before]] of Object.entries(cs.settings)) (settings as Record<string, unknown>)[field] = before;
    };
  }
}

/** A stored change set with its records, as the API shows it. */
export function view(row: ChangeSetRow, entries: readonly ChangeEntryRow[]): ChangeSet & { added_count: number; removed_count: number } {
  const pick = (op: 0 | 1) =>
    entries.filter((e) => e.op === op).map(({ name, record_type, ttl, content, disabled }): RecordData => (disabled ? { name, record_type, ttl, content, disabled: true } : { name, record_type, ttl, content }));
  return {
    id: row.id,
    serial_before: row.serial_before,
    serial_after: row.serial_after,
    created_at: row.created_at,
    source: row.source as Source,
    actor: { username: row.actor_username, credential: row.actor_credential },
    comment: row.comment,
    added: pick(1),
    removed: pick(0),
    added_count: row.added_count,
    removed_count: row.removed_count,
    settings: JSON.parse(row.settings) as Record<string, [unknown, unknown]>,
    ...(row.batch_id ? { batch: row.batch_id } : {}),
  };
}

export type ChangeSets = ReturnType<typeof createChangeSets>;
