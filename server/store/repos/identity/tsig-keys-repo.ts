/** The `tsigKeys` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { scopeToJson } from '../../../core/scope';
import { count, pageTotal } from '../paging';
import type { RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

export function tsigKeysRepo({ db, box, tsigRow }: RepoContext): Repos['tsigKeys'] {
  return {
    insert: async (row) =>
      tsigRow(
        await db
          .insertInto('tsig_keys')
          .values({ ...row, secret: box.seal(row.secret, `tsig:${row.name}`), scope: scopeToJson(row.scope) })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    byName: async (name) => {
      const r = await db.selectFrom('tsig_keys').selectAll().where('name', '=', name).executeTakeFirst();
      return r && tsigRow(r);
    },
    page: async (userId, w) => {
      const rows = await db.selectFrom('tsig_keys').selectAll().where('user_id', '=', userId).orderBy('id').limit(w.limit).offset(w.offset).execute();
      const total = await pageTotal(rows.length, w, () =>
        count(
          db
            .selectFrom('tsig_keys')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirst(),
        ),
      );
      return { rows: rows.map(tsigRow), total };
    },
    listByUser: async (userId) => (await db.selectFrom('tsig_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(tsigRow),
    // A disabled user's keys sign nothing: the DNS server's keyring reads only the others.
    all: async () =>
      (
        await db
          .selectFrom('tsig_keys')
          .selectAll()
          .where('user_id', 'not in', db.selectFrom('users').select('id').where('disabled_at', 'is not', null))
          .orderBy('id')
          .execute()
      ).map(tsigRow),
    // Keys are never edited and ids never reused, so count and highest id tell a change of keys; the
    // disabled users' count and latest disabled_at tell a user disabled or enabled (each disabling sets a new, later time).
    version: async () => {
      const disabled = () => db.selectFrom('users').where('disabled_at', 'is not', null);
      const r = await db
        .selectFrom('tsig_keys')
        .select((e) => [
          e.fn.countAll<number>().as('n'),
          e.fn.max('id').as('last'),
          disabled()
            .select((u) => u.fn.countAll<number>().as('d'))
            .as('disabled'),
          disabled()
            .select((u) => u.fn.max('disabled_at').as('latest'))
            .as('latest'),
        ])
        .executeTakeFirst();
      return `${Number(r?.n ?? 0)}:${Number(r?.last ?? 0)}:${Number(r?.disabled ?? 0)}:${r?.latest ?? ''}`;
    },
    delete: async (id) => Number((await db.deleteFrom('tsig_keys').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
  };
}
