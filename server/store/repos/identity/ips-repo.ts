/** The `ips` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { count, pageTotal } from '../paging';
import { ipRow, type RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

export function ipsRepo({ db }: RepoContext): Repos['ips'] {
  return {
    insert: async (row) =>
      ipRow(
        await db
          .insertInto('ips')
          .values({ ...row, active: row.active ? 1 : 0 })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    page: async (userId, w) => {
      const rows = await db.selectFrom('ips').selectAll().where('user_id', '=', userId).orderBy('id').limit(w.limit).offset(w.offset).execute();
      const total = await pageTotal(rows.length, w, () =>
        count(
          db
            .selectFrom('ips')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirst(),
        ),
      );
      return { rows: rows.map(ipRow), total };
    },
    listByUser: async (userId) => (await db.selectFrom('ips').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(ipRow),
    find: async (userId, address, cidr) => {
      const r = await db.selectFrom('ips').selectAll().where('user_id', '=', userId).where('address', '=', address).where('cidr', '=', cidr).executeTakeFirst();
      return r && ipRow(r);
    },
    delete: async (id) => Number((await db.deleteFrom('ips').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
  };
}
