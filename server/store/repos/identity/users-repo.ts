/** The `users` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { count, escapeLike, like, pageTotal } from '../paging';
import { Q, userRow, type RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

export function usersRepo({ db, p }: RepoContext): Repos['users'] {
  return {
    insert: async ({ is_admin, must_change_password, ...row }) =>
      userRow(
        await db
          .insertInto('users')
          .values({ ...row, is_admin: is_admin ? 1 : 0, must_change_password: must_change_password ? 1 : 0 })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    byUsername: async (username) => {
      const r = await db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
      return r && userRow(r);
    },
    byId: async (id) => {
      const r = await p.first(Q.userById, [id]);
      return r && userRow(r);
    },
    count: () =>
      count(
        db
          .selectFrom('users')
          .select((e) => e.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ),
    setPassword: async (id, hash, mustChange = false) => {
      await db
        .updateTable('users')
        .set({ password_hash: hash, must_change_password: mustChange ? 1 : 0 })
        .where('id', '=', id)
        .execute();
    },
    mustChangePassword: async (id) => {
      const r = await db.selectFrom('users').select('must_change_password').where('id', '=', id).executeTakeFirst();
      return Boolean(r?.must_change_password);
    },
    requirePasswordChange: async (id) => {
      await db.updateTable('users').set({ must_change_password: 1 }).where('id', '=', id).execute();
    },
    page: async (w, search) => {
      let q = db.selectFrom('users');
      if (search) q = q.where(like('username', `%${escapeLike(search.toLowerCase())}%`));
      const rows = await q.selectAll().orderBy('username').limit(w.limit).offset(w.offset).execute();
      const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
      return { rows: rows.map(userRow), total };
    },
    update: async (id, patch) => {
      const set: { is_admin?: number; disabled_at?: string | null } = {};
      if (patch.is_admin !== undefined) set.is_admin = patch.is_admin ? 1 : 0;
      if (patch.disabled_at !== undefined) set.disabled_at = patch.disabled_at;
      if (Object.keys(set).length) await db.updateTable('users').set(set).where('id', '=', id).execute();
    },
  };
}
