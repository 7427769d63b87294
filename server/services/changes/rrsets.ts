/**
 * Atomic bulk changes of RRsets (PATCH /domains/:name/rrsets): REPLACE sets an
 * RRset to exactly the records given (none: deletes it), DELETE removes it, ADD adds records
 * and keeps the rest (duplicates skipped), REMOVE removes the ones listed. Every entry is
 * checked first (errors keyed by position: `rrsets.1.records.0`); then all are applied in
 * order to one draft of the zone, which must be valid as a whole, as one change set.
 */
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { Invalid } from '../../core/errors';
import { slicer } from '../../core/pause';
import { recordType } from '../../core/record-types';
import { parseTtl } from '../../core/ttl';
import type { Applied, ChangeSets, Settings, WriteOptions } from './change-sets';
import { FieldCheck } from './rule-fields';
import type { Blame, Entry } from './zone-draft';
import type { ZoneRef, Zones } from '../zones/zones';
import { setComment } from './record-comments';

export type Changetype = 'REPLACE' | 'DELETE' | 'ADD' | 'REMOVE';

export interface RRsetChange {
  name?: string;
  record_type: string;
  ttl?: string;
  changetype: Changetype;
  records?: string[];
  /** Beside `records`: which of them are disabled (kept, not served); absent: none (the PowerDNS API's `disabled`). */
  disabled?: boolean[];
  /** The RRset's comment ('' or null: none; absent: as it is), written with the change (record-comments.ts). */
  comment?: string | null;
}

interface Resolved {
  name: string;
  type: string;
  ttl?: number;
  changetype: Changetype;
  records: string[];
  disabled: boolean[];
  comment?: string | null;
}

/** The last entry at each name and at each name and type: a broken rule's blame is one lookup, not a scan of the list. */
function lastIndexes(entries: readonly Resolved[]) {
  const byType = new Map<string, number>();
  const byName = new Map<string, number>();
  entries.forEach((e, i) => {
    byType.set(`${e.name} ${e.type}`, i);
    byName.set(e.name, i);
  });
  return { byType, byName };
}

export function createRrsets(changes: ChangeSets, zones: Zones, maxRecords: number) {
  /**
   * Every entry validated and canonicalized, or one Invalid naming every bad position. The records
   * are counted first (one change never lists more than a zone may hold), and the event loop turns
   * between entries; a client gone meanwhile stops it (`signal`).
   */
  async function resolveAll(zoneName: string, list: readonly RRsetChange[], signal?: AbortSignal): Promise<Resolved[]> {
    const count = list.reduce((n, rs) => n + (rs.records?.length ?? 0), 0);
    if (count > maxRecords) throw Invalid.field('rrsets', `lists ${count} records; one change lists at most ${maxRecords}, as many as a zone may hold (MAX_RECORDS_PER_ZONE)`);
    const check = new FieldCheck();
    const slice = slicer(signal);
    const out: Resolved[] = [];
    for (const [i, rs] of list.entries()) {
      await slice();
      const at = `rrsets.${i}`;
      const type = check.run(`${at}.record_type`, () => recordType(rs.record_type));
      const name = check.run(`${at}.name`, () => normalizeRecordName(rs.name ?? '', zoneName));
      const ttl = rs.ttl === undefined ? undefined : check.run(`${at}.ttl`, () => parseTtl(rs.ttl!));
      if (type && name === APEX && !type.allowedAtApex) {
        check.fail(
          `${at}.record_type`,
          type.type === 'NS' ? 'the NS set at the apex is managed by zonedeck' : (type.apexRule ?? `a ${type.type} record cannot stand at the zone apex (RFC 1034 §3.6.2)`),
        );
      }
      const records = (rs.changetype === 'DELETE' ? [] : (rs.records ?? [])).map((c, j) => (type ? check.run(`${at}.records.${j}`, () => type.normalize(c)) : undefined));
      if (rs.changetype === 'DELETE' && (rs.records?.length ?? 0) > 0) check.fail(`${at}.records`, 'must be empty for DELETE, which removes the whole RRset');
      out.push({ name: name!, type: type?.type ?? '', ttl, changetype: rs.changetype, records: records as string[], disabled: records.map((_, j) => rs.disabled?.[j] === true), comment: rs.comment });
    }
    check.done();
    return out;
  }

  return {
    /**
     * The zone's records replaced by exactly these RRsets (the apex NS set, the service's, stays),
     * with these settings, as one change set: the PowerDNS API's PUT of a zone with `rrsets`.
     */
    async replaceAll(userId: number, zoneName: ZoneRef, list: readonly RRsetChange[], settings: Partial<Settings>, opts: WriteOptions): Promise<Applied<void>> {
      // Prepared before the write lock: every entry validated and canonicalized; inside it only the draft is edited.
      const zone = await zones.owned(userId, zoneName);
      const entries = await resolveAll(
        zone.name,
        list.map((rs) => ({ ...rs, changetype: 'REPLACE' as const })),
        opts.signal,
      );
      return changes.update(zone, opts, async (u) => {
        const { draft } = u;
        await draft.loadAll();
        const given = new Set(entries.map((e) => `${e.name} ${e.type}`));
        for (const name of draft.names()) {
          for (const type of draft.types(name)) {
            if ((name !== APEX || type !== 'NS') && !given.has(`${name} ${type}`)) draft.put(name, type, [], 0);
          }
        }
        for (const e of entries) {
          const ttl = e.ttl ?? draft.rrset(e.name, e.type)[0]?.ttl ?? u.zone.minimum_ttl;
          draft.put(
            e.name,
            e.type,
            e.records.map((content, j) => ({ content, ttl, disabled: e.disabled[j] })),
            ttl,
          );
        }
        Object.assign(u.settings, settings);
        const last = lastIndexes(entries);
        u.blame = (name, type) => {
          const at = last.byType.get(`${name} ${type}`);
          return at === undefined ? 'rrsets' : `rrsets.${at}`;
        };
      });
    },

    async patch(userId: number, zoneName: ZoneRef, list: readonly RRsetChange[], opts: WriteOptions): Promise<Applied<void>> {
      // Prepared before the write lock, as for replaceAll.
      const zone = await zones.owned(userId, zoneName);
      const entries = await resolveAll(zone.name, list, opts.signal);
      return changes.update(zone, opts, async (u) => {
        const { draft } = u;
        await draft.load(new Set(entries.map((e) => e.name)));
        for (const e of entries) {
          const current = draft.rrset(e.name, e.type);
          const ttl = e.ttl ?? current[0]?.ttl ?? u.zone.minimum_ttl;
          const given: Entry[] = e.records.map((content, j) => ({ content, ttl, disabled: e.disabled[j] }));
          if (e.changetype === 'REPLACE') draft.put(e.name, e.type, given, ttl);
          else if (e.changetype === 'DELETE') draft.put(e.name, e.type, [], ttl);
          else if (e.changetype === 'ADD') draft.put(e.name, e.type, [...current, ...given], ttl);
          else {
            const gone = new Set(e.records);
            draft.put(
              e.name,
              e.type,
              current.filter((c) => !gone.has(c.content)),
              ttl,
            );
          }
        }
        for (const e of entries) if (e.comment !== undefined) await setComment(u, e.name, e.type, e.comment);
        // A rule broken at a name is blamed on the last entry that touched it (that type first).
        const last = lastIndexes(entries);
        const blame: Blame = (name, type) => {
          const at = last.byType.get(`${name} ${type}`) ?? last.byName.get(name);
          return at === undefined ? 'rrsets' : `rrsets.${at}`;
        };
        u.blame = blame;
      });
    },
  };
}

export type Rrsets = ReturnType<typeof createRrsets>;
