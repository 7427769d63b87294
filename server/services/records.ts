/**
 * Records inside a zone: create, list, get, update, delete, with the rules a DNS operator
 * expects (RFC 1034 §3.6.2 and RFC 2181 §10.1 CNAME exclusivity, no CNAME at the apex,
 * the apex NS set managed by the service, one TTL per RRset per RFC 2181 §5.2), each in
 * one transaction that also bumps the zone's serial.
 */
import { APEX } from '../core/domain-name';
import { Conflict, Forbidden, NotFound } from '../core/errors';
import { recordType } from '../core/record-types';
import { parseTtl } from '../core/ttl';
import type { DomainRow, Page, RecordFilter, RecordRow, Repos, Store, Window } from '../store/types';
import type { ZoneEvents } from './events';
import { FieldCheck } from './rule-fields';
import { nameAtPlace, nameFromPlace, touchZone, type Place, type Zones } from './zones';

export interface RecordInput {
  name?: string;
  record_type?: string;
  content?: string;
  ttl?: string;
}

interface Resolved {
  name: string;
  record_type: string;
  content: string;
  ttl?: number;
}

const isManaged = (r: { name: string; record_type: string }) => r.name === APEX && r.record_type === 'NS';

/** A record and the place it was asked for at (names in answers are relative to `base`). */
export interface Placed extends Place {
  record: RecordRow;
}

export const DEFAULT_MAX_RECORDS = 200_000;

export function createRecords(store: Store, events: ZoneEvents, zones: Zones, maxRecords = DEFAULT_MAX_RECORDS) {
  /** Validates and canonicalizes every field at once, reporting each bad one. */
  function resolve(place: Place, input: Required<Pick<RecordInput, 'record_type' | 'content'>> & RecordInput, storedName?: string): Resolved {
    const check = new FieldCheck();
    const type = check.run('record_type', () => recordType(input.record_type));
    const name = input.name === undefined && storedName !== undefined ? storedName : check.run('name', () => nameAtPlace(input.name ?? '', place));
    const content = type ? check.run('content', () => type.normalize(input.content)) : undefined;
    const ttl = input.ttl === undefined ? undefined : check.run('ttl', () => parseTtl(input.ttl!));
    if (type && name === APEX && !type.allowedAtApex) {
      check.fail(
        'record_type',
        type.type === 'NS' ? 'the NS set at the apex is managed by zonedeck' : `a ${type.type} record cannot stand at the zone apex (RFC 1034 §3.6.2)`,
      );
    }
    check.done();
    return { name: name!, record_type: type!.type, content: content!, ttl };
  }

  /** Rejects a record that would break CNAME exclusivity or duplicate one already there. */
  async function checkNeighbours(tx: Repos, zone: DomainRow, rec: Resolved, selfId?: number): Promise<RecordRow[]> {
    const here = (await tx.records.atName(zone.id, rec.name)).filter((r) => r.id !== selfId);
    const label = rec.name === APEX ? zone.name : `${rec.name}.${zone.name}`;
    if (rec.record_type === 'CNAME' && here.length > 0) {
      const what = here.some((r) => r.record_type === 'CNAME') ? 'a CNAME record already exists' : `${here[0]!.record_type} records exist`;
      throw new Conflict(`${label}: ${what}; a CNAME excludes all other data at its name`, { record_type: `${what} at ${label}; a CNAME must be the only record at its name (RFC 1034 §3.6.2)` });
    }
    if (rec.record_type !== 'CNAME' && here.some((r) => r.record_type === 'CNAME')) {
      throw new Conflict(`${label} is a CNAME; no other record can stand beside it`, { name: `${label} has a CNAME record; no other record can stand beside it (RFC 1034 §3.6.2)` });
    }
    if (here.some((r) => r.record_type === rec.record_type && r.content === rec.content)) {
      throw new Conflict(`an identical ${rec.record_type} record already exists at ${label}`, { content: `an identical ${rec.record_type} record already exists at ${label}` });
    }
    return here.filter((r) => r.record_type === rec.record_type);
  }

  /** A record by id, seen from the place the request names (another place's record is NotFound). */
  async function load(userId: number, at: string, id: number, tx: Repos = store): Promise<Placed> {
    const place = await zones.place(userId, at, tx);
    const record = await tx.records.byId(place.zone.id, id);
    if (!record || nameFromPlace(record.name, place.base) === null) throw new NotFound(`no record with id ${id} in ${at}`);
    return { ...place, record };
  }

  function changed(zone: DomainRow, names: string[]) {
    events.emit({ kind: 'records-changed', domain: zone, names: [...new Set(names)] });
  }

  return {
    /** Records at or below the place asked for, by name and type. */
    page: async (userId: number, at: string, filter: RecordFilter, w: Window): Promise<Place & { page: Page<RecordRow> }> => {
      const place = await zones.place(userId, at);
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

    get: (userId: number, zoneName: string, id: number) => load(userId, zoneName, id),

    async create(userId: number, where: string, input: RecordInput): Promise<Placed> {
      const check = new FieldCheck();
      if (input.record_type === undefined) check.fail('record_type', 'is required');
      if (input.content === undefined) check.fail('content', 'is required');
      check.done();
      const result = await store.transaction(async (tx) => {
        const place = await zones.place(userId, where, tx);
        const zone = await tx.domains.lock(place.zone.id);
        const rec = resolve(place, input as Resolved & RecordInput);
        if ((await tx.records.zoneCount(zone.id)) >= maxRecords) {
          throw new Forbidden(`${zone.name} already holds ${maxRecords} records, the most one zone may have`);
        }
        const rrset = await checkNeighbours(tx, zone, rec);
        const ttl = rec.ttl ?? rrset[0]?.ttl ?? zone.minimum_ttl;
        const at = new Date().toISOString();
        if (rrset.length > 0 && rrset[0]!.ttl !== ttl) await tx.records.setRrsetTtl(zone.id, rec.name, rec.record_type, ttl, at);
        const record = await tx.records.insert({ domain_id: zone.id, name: rec.name, record_type: rec.record_type, content: rec.content, ttl, created_at: at, updated_at: at });
        return { zone: await touchZone(tx, zone), base: place.base, record };
      });
      changed(result.zone, [result.record.name]);
      return result;
    },

    /** Partial update; a ttl applies to the record's whole RRset. */
    async update(userId: number, where: string, id: number, input: RecordInput): Promise<Placed> {
      const result = await store.transaction(async (tx) => {
        const { zone: found, base, record } = await load(userId, where, id, tx);
        if (isManaged(record)) throw new Forbidden('the NS set at the apex is managed by zonedeck');
        const zone = await tx.domains.lock(found.id);
        const rec = resolve(
          { zone, base },
          { name: input.name, record_type: input.record_type ?? record.record_type, content: input.content ?? record.content, ttl: input.ttl },
          record.name,
        );
        const same = rec.name === record.name && rec.record_type === record.record_type && rec.content === record.content;
        const rrset = same ? [] : await checkNeighbours(tx, zone, rec, record.id);
        const ttl = rec.ttl ?? (same ? record.ttl : (rrset[0]?.ttl ?? record.ttl));
        if (same && ttl === record.ttl) return { zone, base, record, names: [] as string[] };
        const at = new Date().toISOString();
        await tx.records.setRrsetTtl(zone.id, rec.name, rec.record_type, ttl, at);
        const updated = await tx.records.update(record.id, { name: rec.name, record_type: rec.record_type, content: rec.content, ttl, updated_at: at });
        return { zone: await touchZone(tx, zone), base, record: updated, names: [record.name, updated.name] };
      });
      if (result.names.length > 0) changed(result.zone, result.names);
      return { zone: result.zone, base: result.base, record: result.record };
    },

    async remove(userId: number, at: string, id: number): Promise<Placed> {
      const result = await store.transaction(async (tx) => {
        const { zone: found, base, record } = await load(userId, at, id, tx);
        if (isManaged(record)) throw new Forbidden('the NS set at the apex is managed by zonedeck');
        const zone = await tx.domains.lock(found.id);
        await tx.records.delete(record.id);
        return { zone: await touchZone(tx, zone), base, record };
      });
      changed(result.zone, [result.record.name]);
      return result;
    },
  };
}

export type Records = ReturnType<typeof createRecords>;
