/**
 * Records inside a zone: list, get, and create/update/delete, each a change set of one record.
 * Here: the request's own rules — fields valid per type, no duplicate, one TTL per RRset (RFC 2181
 * §5.2) — judged before the write lock on the zone (and the record) as the request found them;
 * inside the change set the record is read once, through the draft's load of its name, and only
 * the draft is edited; the change set checks the zone as it will be (CNAME exclusivity, the apex),
 * bumps the serial and records the history.
 */
import { APEX } from '../../core/domain-name';
import { Conflict, Forbidden, NotFound } from '../../core/errors';
import { recordType } from '../../core/record-types';
import { parseTtl } from '../../core/ttl';
import type { DomainRow, ListedRecord, Page, RecordFilter, ServiceStore, Window } from '../../store/types';
import { CLI_WRITE, type Applied, type ChangeSets, type WriteOptions, type ZoneUpdate } from './change-sets';
import { FieldCheck } from './rule-fields';
import { nameAtPlace, nameFromPlace, type Place, type ZoneRef, type Zones } from '../zones/zones';
import { commentAt, commentsOf, followRecord, setComment } from './record-comments';

export interface RecordInput {
  name?: string;
  record_type?: string;
  content?: string;
  ttl?: string;
  /** Kept but not served (absent: served; on update, as it was). */
  disabled?: boolean;
  /** The RRset's comment ('' or null: none; absent: as it was). */
  comment?: string | null;
}

interface Resolved {
  name: string;
  record_type: string;
  content: string;
  ttl?: number;
}

/** A record and the place it was asked for at (names in answers are relative to `base`). */
export interface Placed extends Place {
  record: ListedRecord;
  /** The comment of the record's RRset, when it has one. */
  comment?: string;
}

const isManaged = (r: { name: string; record_type: string }) => r.name === APEX && r.record_type === 'NS';
const MANAGED = 'the NS set at the apex is managed by zonedeck';

export const DEFAULT_MAX_RECORDS = 200_000;

/** Validates and canonicalizes every field at once, reporting each bad one. */
function resolve(place: Place, input: Required<Pick<RecordInput, 'record_type' | 'content'>> & RecordInput, storedName?: string): Resolved {
  const check = new FieldCheck();
  const type = check.run('record_type', () => recordType(input.record_type));
  const name = input.name === undefined && storedName !== undefined ? storedName : check.run('name', () => nameAtPlace(input.name ?? '', place));
  const content = type ? check.run('content', () => type.normalize(input.content)) : undefined;
  const ttl = input.ttl === undefined ? undefined : check.run('ttl', () => parseTtl(input.ttl!));
  if (type && name === APEX && !type.allowedAtApex) {
    check.fail('record_type', type.type === 'NS' ? MANAGED : (type.apexRule ?? `a ${type.type} record cannot stand at the zone apex (RFC 1034 §3.6.2)`));
  }
  check.done();
  return { name: name!, record_type: type!.type, content: content!, ttl };
}

/** An update's fields over the record as it is. */
const resolveUpdate = (input: RecordInput, { zone, base, record }: Placed): Resolved =>
  resolve({ zone, base }, { name: input.name, record_type: input.record_type ?? record.record_type, content: input.content ?? record.content, ttl: input.ttl }, record.name);

function duplicate(zone: DomainRow, rec: Resolved): Conflict {
  const label = rec.name === APEX ? zone.name : `${rec.name}.${zone.name}`;
  return new Conflict(`an identical ${rec.record_type} record already exists at ${label}`, { content: `an identical ${rec.record_type} record already exists at ${label}` });
}

const noRecord = (id: number, { zone, base }: Place) => new NotFound(`no record with id ${id} in ${base === APEX ? zone.name : `${base}.${zone.name}`}`);

/** The record `seen` before the lock, as it is under it: read through the draft's load of its name (by id only if it moved). */
async function lockedRecord(u: ZoneUpdate, seen: Placed): Promise<ListedRecord> {
  const record = await u.draft.record(seen.record.id, seen.record.name);
  if (!record || nameFromPlace(record.name, seen.base) === null) throw noRecord(seen.record.id, seen);
  if (isManaged(record)) throw new Forbidden(MANAGED);
  return record;
}

/** Takes the record out of its RRset in the draft (the rest keep their TTL). */
function takeOut(u: ZoneUpdate, record: ListedRecord): void {
  const rest = u.draft.rrset(record.name, record.record_type).filter((e) => e.id !== record.id);
  u.draft.put(record.name, record.record_type, rest, rest[0]?.ttl ?? record.ttl);
}

export function createRecords(store: ServiceStore, changes: ChangeSets, zones: Zones) {
  /** A record by id, seen from the place the request names (another place's record is NotFound); read before any lock. */
  async function load(userId: number, where: ZoneRef, id: number): Promise<Placed> {
    const place = await zones.place(userId, where);
    const record = await store.records.byId(place.zone.id, id);
    if (!record || nameFromPlace(record.name, place.base) === null) throw noRecord(id, place);
    return { ...place, record, comment: commentAt(await commentsOf(store, place.zone.id, record.name), record) };
  }

  /** The comment of `record`'s RRset as the change set `u` leaves it. */
  const commentIn = async (u: ZoneUpdate, record: { name: string; record_type: string }) => commentAt(await commentsOf(u.tx, u.zone.id, record.name), record);

  return {
    /** Records at or below the place asked for, by name and type. */
    page: async (userId: number, where: ZoneRef, filter: RecordFilter, w: Window): Promise<Place & { page: Page<ListedRecord>; comments: Map<string, string> }> => {
      const place = await zones.place(userId, where);
      const f: RecordFilter = {};
      if (place.base !== APEX) f.below = place.base;
      if (filter.record_type !== undefined) f.record_type = filter.record_type.trim().toUpperCase();
      if (filter.name !== undefined) {
        try {
          f.name = nameAtPlace(filter.name, place);
        } catch {
          return { ...place, page: { rows: [], total: 0 }, comments: new Map() };
        }
      }
      const page = await store.records.page(place.zone.id, f, w);
      return { ...place, page, comments: page.rows.length > 0 ? await commentsOf(store, place.zone.id, f.name) : new Map() };
    },

    get: (userId: number, where: ZoneRef, id: number) => load(userId, where, id),

    /** Adds a record; without a ttl it takes its RRset's, else the zone's minimum_ttl. */
    async create(userId: number, where: ZoneRef, input: RecordInput, opts: WriteOptions = CLI_WRITE): Promise<Applied<Placed>> {
      const check = new FieldCheck();
      if (input.record_type === undefined) check.fail('record_type', 'is required');
      if (input.content === undefined) check.fail('content', 'is required');
      check.done();
      const place = await zones.place(userId, where);
      const rec = resolve(place, input as Resolved & RecordInput);
      return changes.update(place.zone, opts, async (u) => {
        await u.draft.load([rec.name]);
        const set = u.draft.rrset(rec.name, rec.record_type);
        if (set.some((e) => e.content === rec.content)) throw duplicate(u.zone, rec);
        const ttl = rec.ttl ?? set[0]?.ttl ?? u.zone.minimum_ttl;
        u.draft.put(rec.name, rec.record_type, [...set, { content: rec.content, ttl, disabled: input.disabled === true }], ttl);
        const { zone, inserted } = await u.commit();
        if (input.comment !== undefined) await setComment(u, rec.name, rec.record_type, input.comment);
        const record = inserted.find((r) => r.name === rec.name && r.record_type === rec.record_type && r.content === rec.content)!;
        return { zone, base: place.base, record, comment: await commentIn(u, rec) };
      });
    },

    /** Partial update, keeping the record's id; a ttl applies to the record's whole RRset. */
    async update(userId: number, where: ZoneRef, id: number, input: RecordInput, opts: WriteOptions = CLI_WRITE): Promise<Applied<Placed>> {
      const before = await load(userId, where, id);
      if (isManaged(before.record)) throw new Forbidden(MANAGED);
      const prepared = resolveUpdate(input, before);
      return changes.update(before.zone, opts, async (u) => {
        const record = await lockedRecord(u, before);
        // Resolved again only if another change moved the record meanwhile.
        const same = record.name === before.record.name && record.record_type === before.record.record_type && record.content === before.record.content;
        const rec = same ? prepared : resolveUpdate(input, { zone: u.zone, base: before.base, record });
        await u.draft.load([rec.name]);
        takeOut(u, record);
        const target = u.draft.rrset(rec.name, rec.record_type);
        if (target.some((e) => e.content === rec.content)) throw duplicate(u.zone, rec);
        const sameSet = rec.name === record.name && rec.record_type === record.record_type;
        const ttl = rec.ttl ?? (sameSet ? record.ttl : (target[0]?.ttl ?? record.ttl));
        const disabled = input.disabled ?? record.disabled === 1;
        u.draft.put(rec.name, rec.record_type, [...target, { content: rec.content, ttl, id: record.id, disabled }], ttl);
        const { zone } = await u.commit();
        await followRecord(u, record, rec);
        if (input.comment !== undefined) await setComment(u, rec.name, rec.record_type, input.comment);
        const updated = { id: record.id, name: rec.name, record_type: rec.record_type, content: rec.content, ttl, disabled: disabled ? 1 : 0 };
        return { zone, base: before.base, record: updated, comment: await commentIn(u, rec) };
      });
    },

    async remove(userId: number, where: ZoneRef, id: number, opts: WriteOptions = CLI_WRITE): Promise<Applied<Placed>> {
      const before = await load(userId, where, id);
      if (isManaged(before.record)) throw new Forbidden(MANAGED);
      return changes.update(before.zone, opts, async (u) => {
        const record = await lockedRecord(u, before);
        takeOut(u, record);
        const { zone } = await u.commit();
        const comment = await commentIn(u, record);
        await followRecord(u, record, null);
        return { zone, base: before.base, record, comment };
      });
    },
  };
}

export type Records = ReturnType<typeof createRecords>;
