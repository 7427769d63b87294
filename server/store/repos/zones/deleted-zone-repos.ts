/**
 * The archive of deleted zones (migration 0019). A zone is archived in the transaction that
 * deletes it and brought back in the one that restores it; the live tables never see an
 * archived zone, so every other query stays as it was. Rows are copied as stored: the private
 * halves of DNSSEC keys stay sealed (under `dnssec:<zone id>`, which a restore keeps).
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../schema';
import type { Dialect } from '../../migrate';
import { count, pageTotal } from '../paging';
import { domainRow } from '../repo-kit';
import type { DomainRow } from '../../types';
import type { DeletedZoneRepos, DeletedZoneRow } from '../../types/deleted-zones';

/** The snapshot's format; a newer one is refused rather than half restored. */
const SNAPSHOT_VERSION = 1;

/** Rows per multi-row INSERT: well under either database's bound-parameter limit. */
const BATCH = 500;

type DomainColumns = Omit<Selectable<Database['domains']>, 'record_count' | 'change_count'>;
/** A record: name, type, content, ttl, created_at, updated_at, disabled. */
type RecordTuple = [string, string, string, number, string, string, number];
/** A change set's record: op, name, type, ttl, content, disabled. */
type EntryTuple = [number, string, string, number, string, number];
type KeyColumns = Omit<Selectable<Database['dnssec_keys']>, 'id' | 'domain_id'>;
type ChangeColumns = Omit<Selectable<Database['change_sets']>, 'id' | 'domain_id'> & { entries: EntryTuple[] };
type CommentColumns = Omit<Selectable<Database['rrset_comments']>, 'id' | 'domain_id'>;

/** Everything a deleted zone held. */
export interface ZoneSnapshot {
  v: number;
  domain: DomainColumns;
  records: RecordTuple[];
  keys: KeyColumns[];
  changes: ChangeColumns[];
  attributes: { account: string; soa_edit_api: string; catalog: string } | null;
  comments: CommentColumns[];
  template: { template_id: number; variables: string; applied_at: string } | null;
}

const LIST_COLUMNS = ['id', 'name', 'user_id', 'team_id', 'domain_id', 'deleted_at', 'deleted_by', 'expires_at', 'record_count', 'dnssec'] as const;

const listedRow = (r: Pick<Selectable<Database['deleted_zones']>, (typeof LIST_COLUMNS)[number]>): DeletedZoneRow => ({
  id: Number(r.id),
  name: r.name,
  user_id: Number(r.user_id),
  team_id: r.team_id == null ? null : Number(r.team_id),
  domain_id: Number(r.domain_id),
  deleted_at: r.deleted_at,
  deleted_by: r.deleted_by,
  expires_at: r.expires_at,
  records: Number(r.record_count),
  dnssec: Boolean(Number(r.dnssec)),
});

async function inBatches<T>(rows: readonly T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

export function createDeletedZoneRepos(db: Kysely<Database>, _dialect: Dialect): DeletedZoneRepos {
  /** The archives a user may read: their own zones', and those of the teams they own (the role that deletes a team's zone). */
  const readable = (userId: number) =>
    db
      .selectFrom('deleted_zones')
      .where((eb) =>
        eb.or([
          eb.and([eb('team_id', 'is', null), eb('user_id', '=', userId)]),
          eb('team_id', 'in', eb.selectFrom('team_members').select('team_id').where('user_id', '=', userId).where('role', '=', 'owner')),
        ]),
      );

  async function snapshot(zone: DomainRow): Promise<ZoneSnapshot> {
    const id = zone.id;
    const d = await db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const { record_count: _r, change_count: _c, ...domain } = d;
    const records = (await db.selectFrom('records').select(['name', 'record_type', 'content', 'ttl', 'created_at', 'updated_at', 'disabled']).where('domain_id', '=', id).orderBy('id').execute()).map(
      (r): RecordTuple => [r.name, r.record_type, r.content, Number(r.ttl), r.created_at, r.updated_at, Number(r.disabled)],
    );
    const keys = (await db.selectFrom('dnssec_keys').selectAll().where('domain_id', '=', id).orderBy('id').execute()).map(({ id: _id, domain_id: _d, ...k }) => k);
    const sets = await db.selectFrom('change_sets').selectAll().where('domain_id', '=', id).orderBy('id').execute();
    const entries = await db
      .selectFrom('change_set_records')
      .innerJoin('change_sets', 'change_sets.id', 'change_set_records.change_set_id')
      .select(['change_set_records.change_set_id', 'op', 'name', 'record_type', 'ttl', 'content', 'disabled'])
      .where('change_sets.domain_id', '=', id)
      .orderBy('change_set_records.id')
      .execute();
    const bySet = new Map<number, EntryTuple[]>(sets.map((s) => [Number(s.id), []]));
    for (const e of entries) bySet.get(Number(e.change_set_id))?.push([Number(e.op), e.name, e.record_type, Number(e.ttl), e.content, Number(e.disabled)]);
    const changes = sets.map(({ id: csId, domain_id: _d, ...s }) => ({ ...s, entries: bySet.get(Number(csId)) ?? [] }));
    const attributes = (await db.selectFrom('zone_attributes').select(['account', 'soa_edit_api', 'catalog']).where('domain_id', '=', id).executeTakeFirst()) ?? null;
    const comments = (await db.selectFrom('rrset_comments').selectAll().where('domain_id', '=', id).orderBy('id').execute()).map(({ id: _id, domain_id: _d, ...c }) => c);
    const template = (await db.selectFrom('zone_templates').select(['template_id', 'variables', 'applied_at']).where('domain_id', '=', id).executeTakeFirst()) ?? null;
    return { v: SNAPSHOT_VERSION, domain, records, keys, changes, attributes, comments, template };
  }

  return {
    deletedZones: {
      archive: async (zone, meta) => {
        const s = await snapshot(zone);
        const row = await db
          .insertInto('deleted_zones')
          .values({
            name: zone.name,
            user_id: zone.user_id,
            team_id: zone.team_id ?? null,
            domain_id: zone.id,
            ...meta,
            record_count: s.records.length,
            dnssec: s.domain.dnssec_enabled ? 1 : 0,
            snapshot: JSON.stringify(s),
          })
          .returning(LIST_COLUMNS)
          .executeTakeFirstOrThrow();
        return listedRow(row);
      },

      page: async ({ userId, only }, w) => {
        let q = readable(userId);
        if (only) q = only.length > 0 ? q.where('name', 'in', [...only]) : q.where(sql<boolean>`1 = 0`);
        const rows = await q.select(LIST_COLUMNS).orderBy('deleted_at', 'desc').orderBy('id', 'desc').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
        return { rows: rows.map(listedRow), total };
      },

      byId: async (id) => {
        const r = await db.selectFrom('deleted_zones').select(LIST_COLUMNS).where('id', '=', id).executeTakeFirst();
        return r && listedRow(r);
      },

      unarchive: async (archiveId) => {
        const row = await db.selectFrom('deleted_zones').select(['id', 'snapshot']).where('id', '=', archiveId).executeTakeFirst();
        if (!row) return undefined;
        const s = JSON.parse(row.snapshot) as ZoneSnapshot;
        if (s.v !== SNAPSHOT_VERSION) throw new Error(`deleted zone ${archiveId} was archived in a format (${s.v}) this zonedeck does not read`);
        const id = Number(s.domain.id);
        // Under its old id: ids are never reused, and the keys' sealed halves are bound to it.
        const d = await db
          .insertInto('domains')
          .values({ ...s.domain, id, serial_number: Number(s.domain.serial_number) })
          .returningAll()
          .executeTakeFirstOrThrow();
        await inBatches(s.records, (batch) =>
          db
            .insertInto('records')
            .values(batch.map(([name, record_type, content, ttl, created_at, updated_at, disabled]) => ({ domain_id: id, name, record_type, content, ttl, created_at, updated_at, disabled })))
            .execute(),
        );
        if (s.keys.length > 0)
          await db
            .insertInto('dnssec_keys')
            .values(s.keys.map((k) => ({ ...k, domain_id: id })))
            .execute();
        // The history in its order, under new ids (a change set's records follow their change set).
        for (const { entries, ...cs } of s.changes) {
          const inserted = await db
            .insertInto('change_sets')
            .values({ ...cs, domain_id: id, serial_before: Number(cs.serial_before), serial_after: Number(cs.serial_after) })
            .returning('id')
            .executeTakeFirstOrThrow();
          const csId = Number(inserted.id);
          await inBatches(entries, (batch) =>
            db
              .insertInto('change_set_records')
              .values(batch.map(([op, name, record_type, ttl, content, disabled]) => ({ change_set_id: csId, op, name, record_type, ttl, content, disabled })))
              .execute(),
          );
        }
        if (s.attributes)
          await db
            .insertInto('zone_attributes')
            .values({ domain_id: id, ...s.attributes })
            .execute();
        await inBatches(s.comments, (batch) =>
          db
            .insertInto('rrset_comments')
            .values(batch.map((c) => ({ ...c, domain_id: id, modified_at: Number(c.modified_at) })))
            .execute(),
        );
        if (s.template && (await db.selectFrom('templates').select('id').where('id', '=', s.template.template_id).executeTakeFirst())) {
          await db
            .insertInto('zone_templates')
            .values({ domain_id: id, ...s.template })
            .execute();
        }
        await db.deleteFrom('deleted_zones').where('id', '=', archiveId).execute();
        return domainRow(d);
      },

      purge: async (at) => Number((await db.deleteFrom('deleted_zones').where('expires_at', '<', at).executeTakeFirst()).numDeletedRows),
    },
  };
}
