/**
 * The `transfers` repo (migration 0024): the refresh state of secondary zones and the lease a node
 * holds while it checks one. Times are ISO texts, which sort as they compare.
 */
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database } from '../../schema';
import type { CatalogRepos, CatalogRow, TransferRepos, TransferRow, TransferState } from '../../types';

const toRow = (r: Selectable<Database['zone_transfers']>): TransferRow => ({
  ...r,
  state: r.state as TransferState,
  serial: r.serial === null ? null : Number(r.serial),
  failures: Number(r.failures),
});

export function createTransferRepos(db: Kysely<Database>): TransferRepos {
  /** The row of a zone never checked, due at `at`; nothing when it has one. */
  const ensure = (domainId: number, at: string) =>
    db
      .insertInto('zone_transfers')
      .values({ domain_id: domainId, state: 'refreshing', next_check: at })
      .onConflict((oc) => oc.column('domain_id').doNothing())
      .execute();
  return {
    transfers: {
      get: async (ids) => {
        if (ids.length === 0) return new Map();
        const rows = await db
          .selectFrom('zone_transfers')
          .selectAll()
          .where('domain_id', 'in', [...ids])
          .execute();
        return new Map(rows.map((r) => [r.domain_id, toRow(r)]));
      },
      due: async (now, limit) => {
        const rows = await db
          .selectFrom('domains as d')
          .leftJoin('zone_transfers as t', 't.domain_id', 'd.id')
          .select('d.id')
          .where('d.kind', '=', 'secondary')
          .where((eb) => eb.or([eb('t.domain_id', 'is', null), eb.and([eb('t.next_check', '<=', now), eb.or([eb('t.lease_until', 'is', null), eb('t.lease_until', '<', now)])])]))
          .orderBy('d.id')
          .limit(limit)
          .execute();
        return rows.map((r) => r.id);
      },
      claim: async (domainId, holder, now, until) => {
        await ensure(domainId, now);
        const r = await db
          .updateTable('zone_transfers')
          .set({ lease_holder: holder, lease_until: until })
          .where('domain_id', '=', domainId)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_holder', '=', holder)]))
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1;
      },
      finish: async (domainId, holder, result) => {
        await db
          .updateTable('zone_transfers')
          .set({ ...result, lease_holder: null, lease_until: null })
          .where('domain_id', '=', domainId)
          .where('lease_holder', '=', holder)
          .execute();
      },
      dueBy: async (domainId, at) => {
        await ensure(domainId, at);
        await db.updateTable('zone_transfers').set({ next_check: at }).where('domain_id', '=', domainId).where('next_check', '>', at).execute();
      },
    },
  };
}

const catalogRow = (r: Selectable<Database['catalogs']>): CatalogRow => ({
  ...r,
  primaries: JSON.parse(r.primaries) as string[],
  serial: r.serial === null ? null : Number(r.serial),
  members: Number(r.members),
});

/** The `catalogs` repo (migration 0027): catalogs followed as a consumer, and the lease a node holds while it checks one. */
export function createCatalogRepos(db: Kysely<Database>): CatalogRepos {
  const free = (now: string) => (eb: ExpressionBuilder<Database, 'catalogs'>) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]);
  return {
    catalogs: {
      insert: async (row) =>
        catalogRow(
          await db
            .insertInto('catalogs')
            .values({ ...row, primaries: JSON.stringify(row.primaries) })
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      all: async () => (await db.selectFrom('catalogs').selectAll().orderBy('zone').execute()).map(catalogRow),
      byZone: async (zone) => {
        const r = await db.selectFrom('catalogs').selectAll().where('zone', '=', zone).executeTakeFirst();
        return r && catalogRow(r);
      },
      byId: async (id) => {
        const r = await db.selectFrom('catalogs').selectAll().where('id', '=', id).executeTakeFirst();
        return r && catalogRow(r);
      },
      due: async (now) => (await db.selectFrom('catalogs').selectAll().where('next_check', '<=', now).where(free(now)).orderBy('id').execute()).map(catalogRow),
      claim: async (id, holder, now, until) => {
        const r = await db
          .updateTable('catalogs')
          .set({ lease_holder: holder, lease_until: until })
          .where('id', '=', id)
          .where((eb) => eb.or([free(now)(eb), eb('lease_holder', '=', holder)]))
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1;
      },
      finish: async (id, holder, result) => {
        await db
          .updateTable('catalogs')
          .set({ ...result, lease_holder: null, lease_until: null })
          .where('id', '=', id)
          .where('lease_holder', '=', holder)
          .execute();
      },
      dueBy: async (id, at) => {
        await db.updateTable('catalogs').set({ next_check: at }).where('id', '=', id).where('next_check', '>', at).execute();
      },
      delete: async (id) => {
        await db.updateTable('domains').set({ catalog_id: null }).where('catalog_id', '=', id).execute();
        return Number((await db.deleteFrom('catalogs').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
      },
      memberZones: (id) => db.selectFrom('domains').select(['id', 'name']).where('catalog_id', '=', id).orderBy('name').execute(),
    },
  };
}
