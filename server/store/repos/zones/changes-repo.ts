/** The `changes` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { count, pageTotal } from '../paging';
import { CHANGE_SET_COLUMNS, ENTRY_COLUMNS, PREPARED_ROWS, Q, argsOf, changeSetRow, inBatches, type RepoContext } from '../repo-kit';
import type { ChangeEntryRow, Repos } from '../../types';

export function changesRepo({ db, p }: RepoContext): Repos['changes'] {
  return {
    insert: async (row, entries) => {
      const cs = changeSetRow({ id: await p.insert(Q.changeSetInsert, argsOf(CHANGE_SET_COLUMNS, [row])), ...row });
      await inBatches(entries, async (batch) => {
        const rows = batch.map((e) => ({ ...e, change_set_id: cs.id }));
        if (rows.length <= PREPARED_ROWS) await p.run(Q.entriesInsert, argsOf(ENTRY_COLUMNS, rows), rows.length);
        else await db.insertInto('change_set_records').values(rows).execute();
      });
      return cs;
    },
    setBatch: async (id, batchId) => {
      await db.updateTable('change_sets').set({ batch_id: batchId }).where('id', '=', id).execute();
    },
    ofBatch: async (batchId) => {
      const rows = await db
        .selectFrom('change_sets')
        .innerJoin('domains', 'domains.id', 'change_sets.domain_id')
        .selectAll('change_sets')
        .select('domains.name as zone')
        .where('batch_id', '=', batchId)
        .orderBy('change_sets.id')
        .execute();
      return rows.map(({ zone, ...r }) => ({ ...changeSetRow(r), zone }));
    },
    byId: async (domainId, id) => {
      const r = await db.selectFrom('change_sets').selectAll().where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();
      return r && changeSetRow(r);
    },
    page: async (domainId, filter, w) => {
      let q = db.selectFrom('change_sets').where('domain_id', '=', domainId);
      if (filter.source !== undefined) q = q.where('source', '=', filter.source);
      if (filter.username !== undefined) q = q.where('actor_username', '=', filter.username);
      const rows = await q.selectAll().orderBy('id', 'desc').limit(w.limit).offset(w.offset).execute();
      const unfiltered = filter.source === undefined && filter.username === undefined;
      const countAll = unfiltered
        ? async () => Number((await db.selectFrom('domains').select('change_count').where('id', '=', domainId).executeTakeFirst())?.change_count ?? 0)
        : () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst());
      return { rows: rows.map(changeSetRow), total: await pageTotal(rows.length, w, countAll) };
    },
    entries: async (changeSetId, limit, op) => {
      let q = db.selectFrom('change_set_records').select(['op', 'name', 'record_type', 'ttl', 'content', 'disabled']).where('change_set_id', '=', changeSetId);
      if (op !== undefined) q = q.where('op', '=', op);
      q = q.orderBy('op').orderBy('id');
      if (limit !== undefined) q = q.limit(limit);
      return (await q.execute()) as ChangeEntryRow[];
    },
    entriesOf: async (ids) => {
      const out = new Map<number, ChangeEntryRow[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return out;
      const rows = await db
        .selectFrom('change_set_records')
        .select(['change_set_id', 'op', 'name', 'record_type', 'ttl', 'content', 'disabled'])
        .where('change_set_id', 'in', ids)
        .orderBy('change_set_id')
        .orderBy('op')
        .orderBy('id')
        .execute();
      for (const { change_set_id, ...e } of rows) out.get(change_set_id)!.push(e as ChangeEntryRow);
      return out;
    },
    from: async (domainId, serial) => {
      const first = await db.selectFrom('change_sets').select('id').where('domain_id', '=', domainId).where('serial_before', '=', serial).orderBy('id', 'desc').executeTakeFirst();
      if (!first) return [];
      const rows = await db.selectFrom('change_sets').selectAll().where('domain_id', '=', domainId).where('id', '>=', first.id).orderBy('id').execute();
      return rows.map(changeSetRow);
    },
    prune: async (at) => Number((await db.deleteFrom('change_sets').where('created_at', '<', at).executeTakeFirst()).numDeletedRows),
  };
}
