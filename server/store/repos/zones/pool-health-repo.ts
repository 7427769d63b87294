/** The `poolHealth` repo of the Store interface (types/health.ts), over kysely for SQLite and PostgreSQL alike. */
import type { MemberState } from '../../../core/pools';
import type { Repos } from '../../types';
import { domainRow, type RepoContext } from '../repo-kit';

const asState = (s: string): MemberState => (s === 'up' || s === 'down' ? s : 'unknown');

export function poolHealthRepo({ db }: RepoContext): Repos['poolHealth'] {
  return {
    zones: async () => (await db.selectFrom('domains').selectAll().where('pools', 'is not', null).where('kind', '=', 'primary').orderBy('id').execute()).map(domainRow),
    report: async (rows) => {
      for (const r of rows) {
        const values = { up: r.up === null ? null : r.up ? 1 : 0, ok: r.ok ? 1 : 0, detail: r.detail, checked_at: r.checked_at };
        await db
          .insertInto('pool_reports')
          .values({ domain_id: r.domain_id, pool: r.pool, address: r.address, node: r.node, ...values })
          .onConflict((oc) => oc.columns(['domain_id', 'pool', 'address', 'node']).doUpdateSet(values))
          .execute();
      }
    },
    reports: async (domainId, pool) => {
      let q = db.selectFrom('pool_reports').selectAll().where('domain_id', '=', domainId);
      if (pool !== undefined) q = q.where('pool', '=', pool);
      const rows = await q.orderBy('pool').orderBy('address').orderBy('node').execute();
      return rows.map((r) => ({ ...r, up: r.up === null ? null : Boolean(r.up), ok: Boolean(r.ok) }));
    },
    states: async (domainId) => (await db.selectFrom('pool_states').selectAll().where('domain_id', '=', domainId).execute()).map((r) => ({ ...r, state: asState(r.state) })),
    setState: async (domainId, pool, address, to, at) => {
      const row = await db.selectFrom('pool_states').select('state').where('domain_id', '=', domainId).where('pool', '=', pool).where('address', '=', address).executeTakeFirst();
      if (!row) {
        if (to === 'unknown') return null;
        const r = await db
          .insertInto('pool_states')
          .values({ domain_id: domainId, pool, address, state: to, since: at })
          .onConflict((oc) => oc.columns(['domain_id', 'pool', 'address']).doNothing())
          .executeTakeFirst();
        return Number(r.numInsertedOrUpdatedRows ?? 0) > 0 ? 'unknown' : null;
      }
      if (row.state === to) return null;
      // Only from the state read: of two nodes judging at once, one moves it.
      const r = await db
        .updateTable('pool_states')
        .set({ state: to, since: at })
        .where('domain_id', '=', domainId)
        .where('pool', '=', pool)
        .where('address', '=', address)
        .where('state', '=', row.state)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0 ? asState(row.state) : null;
    },
    addTransition: async (t) => {
      await db
        .insertInto('pool_transitions')
        .values({ domain_id: t.domain_id, pool: t.pool, address: t.address, from_state: t.from, to_state: t.to, at: t.at, node: t.node, votes: t.votes })
        .execute();
    },
    transitions: async (domainId, pool, limit) =>
      (await db.selectFrom('pool_transitions').selectAll().where('domain_id', '=', domainId).where('pool', '=', pool).orderBy('id', 'desc').limit(limit).execute()).map(
        ({ from_state, to_state, ...r }) => ({ ...r, from: asState(from_state), to: asState(to_state) }),
      ),
    prune: async (domainId, keep, keepTransitions) => {
      for (const table of ['pool_reports', 'pool_states', 'pool_transitions'] as const) {
        const rows = await db.selectFrom(table).select(['pool', 'address']).distinct().where('domain_id', '=', domainId).execute();
        for (const r of rows) {
          if (keep.get(r.pool)?.has(r.address)) continue;
          await db.deleteFrom(table).where('domain_id', '=', domainId).where('pool', '=', r.pool).where('address', '=', r.address).execute();
        }
      }
      for (const pool of keep.keys()) {
        const last = await db
          .selectFrom('pool_transitions')
          .select('id')
          .where('domain_id', '=', domainId)
          .where('pool', '=', pool)
          .orderBy('id', 'desc')
          .offset(keepTransitions)
          .limit(1)
          .executeTakeFirst();
        if (last) await db.deleteFrom('pool_transitions').where('domain_id', '=', domainId).where('pool', '=', pool).where('id', '<=', last.id).execute();
      }
    },
  };
}
