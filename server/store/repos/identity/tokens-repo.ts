/** The `tokens` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { scopeToJson } from '../../../core/scope';
import { count, pageTotal } from '../paging';
import { Q, tokenRow, userRow, type RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

export function tokensRepo({ db, p }: RepoContext): Repos['tokens'] {
  return {
    insert: async (row) =>
      tokenRow(
        await db
          .insertInto('tokens')
          .values({ ...row, scope: scopeToJson(row.scope) })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    byId: async (id) => {
      const r = await db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
      return r && tokenRow(r);
    },
    withUser: async (hash) => {
      const r = await p.first(Q.tokenWithUser, [hash]);
      if (!r) return undefined;
      const { username, password_hash, user_created_at, is_admin, disabled_at, ...token } = r;
      return { token: tokenRow(token), user: userRow({ id: token.user_id, username, password_hash, created_at: user_created_at, is_admin, disabled_at }) };
    },
    listByUser: async (userId) => (await db.selectFrom('tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(tokenRow),
    page: async (userId, w, opts = {}) => {
      let q = db.selectFrom('tokens').where('user_id', '=', userId);
      // API tokens only: not the tokens dashboard sessions hold.
      if (opts.apiOnly) q = q.where((eb) => eb.not(eb.exists(eb.selectFrom('sessions').select('sessions.token_id').whereRef('sessions.token_id', '=', 'tokens.id'))));
      const rows = await q
        .selectAll()
        .orderBy('id', opts.newestFirst ? 'desc' : 'asc')
        .limit(w.limit)
        .offset(w.offset)
        .execute();
      const total = await pageTotal(rows.length, w, () => count(q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst()));
      return { rows: rows.map(tokenRow), total };
    },
    delete: async (id) => Number((await db.deleteFrom('tokens').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    touch: async (id, at) => {
      await db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
