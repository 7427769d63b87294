/**
 * Records inside a zone: list, get, and create/update/delete, each a change set of one
 * record applied by `change-sets.ts`, which checks the zone as it will be
 * (CNAME exclusivity, the apex rules), bumps the serial and records the history. Here: the
 * request's own rules — fields valid per type, no duplicate, one TTL per RRset (RFC 2181 §5.2).
 */
import { APEX } from '../../core/domain-name';
import { Conflict, Forbidden, NotFound } from '../../core/errors';
import { recordType } from '../../core/record-types';
import { parseTtl } from '../../core/ttl';
import type { DomainRow, ListedRecord, Page, RecordFilter, RecordRow, ServiceRepos, ServiceStore, Window } from '../../store/types';
import { CLI_WRITE, type Applied, type ChangeSets, type WriteOptions } from './change-sets';
import { FieldCheck } from './rule-fields';
import { nameAtPlace, nameFromPlace, type Place, type ZoneRef, type Zones } from '../zones/zones';

export interface RecordInput {
  name?: string;
  record_type?: string;
  content?: string;
  ttl?: string;
  /** Kept but not served (absent: served; on update, as it was). */
  disabled?: boolean;
}

interface Resolved {
  name: string;
  record_type: string;
  content: string;
  ttl?: number;
}

/** A record and the place it was asked for at (names in answers are relative to `base`). */
export interface Placed extends Place {
  record: RecordRow;
}

const isManaged = (r: { name: string; record_type: string }) => r.name === APEX && r.record_type === 'NS';
const MANAGED = 'the NS set at the apex is managed by zonedeck';

export const DEFAULT_MAX_RECORDS = 200_000;

export function createRecords(store: ServiceStore, changes: ChangeSets, zones: Zones) {
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

  const duplicate = (zone: DomainRow, rec: Resolved) => {
    const label = rec.name === APEX ? zone.name : `${rec.name}.${zone.name}`;
    return new Conflict(`an identical ${rec.record_type} record already exists at ${label}`, { content: `an identical ${rec.record_type} record already exists at ${label}` });
  };

  /** A record by id, seen from the place the request names (another place's record is NotFound). */
  async function load(userId: number, where: ZoneRef, id: number, tx: ServiceRepos = store): Promise<Placed> {
    const place = await zones.place(userId, where, tx);
    const record = await tx.records.byId(place.zone.id, id);
    if (!record || nameFromPlace(record.name, place.base) === null) throw new NotFound(`no record with id ${id} in ${place.base === APEX ? place.zone.name : `${place.base}.${place.zone.name}`}`);
    return { ...place, record };
  }

  return {
    /** Records at or below the place asked for, by name and type. */
    page: async (userId: number, where: ZoneRef, filter: RecordFilter, w: Window): Promise<Place & { page: Page<ListedRecord> }> => {
      const place = await zones.place(userId, where);
      const f: RecordFilter = {};
      if (place.base !== APEX) f.below = place.base;
      if (filter.record_type !== undefined) f.record_type = filter.record_type.trim().toUpperCase();
      if (filter.name !== undefined) {
        try {
          f.name = nameAtPlace(filter.name, place);
        } catch {
          return { ...place, page: { rows: [], total: 0 } };
        }
      }
      return { ...place, page: await store.records.page(place.zone.id, f, w) };
    },

    get: (userId: number, where: ZoneRef, id: number) => load(userId, where, id),

    /** Adds a record; without a ttl it takes its RRset's, else the zone's minimum_ttl. */
    async create(userId: number, where: ZoneRef, input: RecordInput, opts: WriteOptions = CLI_WRITE): Promise<Applied<Placed>> {
      const check = new FieldCheck();
      if (input.record_type === undefined) check.fail('record_type', 'is required');
      if (input.content === undefined) check.fail('content', 'is required');
      check.done();
      // Validated and canonicalized before the write lock: inside it only the draft is edited.
      let place = await zones.place(userId, where);
      const rec = resolve(place, input as Resolved & RecordInput);
      return changes.apply(
        async (tx) => (place = await zones.place(userId, where, tx)).zone,
        opts,
        async ({ draft, zone }) => {
          await draft.load([rec.name]);
          const set = draft.rrset(rec.name, rec.record_type);
          if (set.some((e) => e.content === rec.content)) throw duplicate(zone, rec);
          const ttl = rec.ttl ?? set[0]?.ttl ?? zone.minimum_ttl;
          draft.put(rec.name, rec.record_type, [...set, { content: rec.content, ttl, disabled: input.disabled === true }], ttl);
        },
        async (_tx, zone, _change, inserted) => ({
          zone,
          base: place.base,
          record: inserted.find((r) => r.name === rec.name && r.record_type === rec.record_type && r.content === rec.content)!,
        }),
      );
    },

    /** Partial update, keeping the record's id; a ttl applies to the record's whole RRset. */
    async update(userId: number, where: ZoneRef, id: number, input: RecordInput, opts: WriteOptions = CLI_WRITE): Promise<Applied<Placed>> {
      const resolved = ({ zone, base, record }: Placed) =>
        resolve({ zone, base }, { name: input.name, record_type: input.record_type ?? record.record_type, content: input.content ?? record.content, ttl: input.ttl }, record.name);
      // Validated and canonicalized before the write lock, against the record as read
      // then; inside it again only if another change moved the record meanwhile (one record).
      const before = await load(userId, where, id);
      if (isManaged(before.record)) throw new Forbidden(MANAGED);
      const prepared = resolved(before);
      let found!: Placed;
      return changes.apply(
        async (tx) => (found = await load(userId, where, id, tx)).zone,
        opts,
        async ({ draft, zone }) => {
          const { record, base } = found;
          if (isManaged(record)) throw new Forbidden(MANAGED);
          const same = record.name === before.record.name && record.record_type === before.record.record_type && record.content === before.record.content && base === before.base;
          const rec = same ? prepared : resolved({ ...found, zone });
          await draft.load([record.name, rec.name]);
          const rest = draft.rrset(record.name, record.record_type).filter((e) => e.id !== record.id);
          draft.put(record.name, record.record_type, rest, rest[0]?.ttl ?? record.ttl);
          const target = draft.rrset(rec.name, rec.record_type);
          if (target.some((e) => e.content === rec.content)) throw duplicate(zone, rec);
          const sameSet = rec.name === record.name && rec.record_type === record.record_type;
          const ttl = rec.ttl ?? (sameSet ? record.ttl : (target[0]?.ttl ?? record.ttl));
          draft.put(rec.name, rec.record_type, [...target, { content: rec.content, ttl, id: record.id, disabled: input.disabled ?? record.disabled === 1 }], ttl);
        },
        async (tx, zone) => ({ zone, base: found.base, record: (await tx.records.byId(zone.id, id))! }),
      );
    },

    async remove(userId: number, where: ZoneRef, id: number, opts: WriteOptions = CLI_WRITE): Promise<Applied<Placed>> {
      let found!: Placed;
      return changes.apply(
        async (tx) => (found = await load(userId, where, id, tx)).zone,
        opts,
        async ({ draft }) => {
          const { record } = found;
          if (isManaged(record)) throw new Forbidden(MANAGED);
          await draft.load([record.name]);
          const rest = draft.rrset(record.name, record.record_type).filter((e) => e.id !== record.id);
          draft.put(record.name, record.record_type, rest, rest[0]?.ttl ?? record.ttl);
        },
        async (_tx, zone) => ({ zone, base: found.base, record: found.record }),
      );
    },
  };
}

export type Records = ReturnType<typeof createRecords>;
