/** The `sessions` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import type { RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

export function sessionsRepo({ db }: RepoContext): Repos['sessions'] {
  return {
    insert: async (row) => {
      await db.insertInto('sessions').values(row).execute();
      return row;
    },
    byIdHash: (idHash) => db.selectFrom('sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst(),
    touch: async (idHash, at) => {
      await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).execute();
    },
    delete: async (idHash) => Number((await db.deleteFrom('sessions').where('id_hash', '=', idHash).executeTakeFirst()).numDeletedRows) > 0,
    byUser: (userId) => db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute(),
    authenticated: async (idHash, at) => {
      await db.updateTable('sessions').set({ authenticated_at: at }).where('id_hash', '=', idHash).execute();
    },
    byTokenId: (tokenId) => db.selectFrom('sessions').selectAll().where('token_id', '=', tokenId).executeTakeFirst(),
    deleteExpired: async (at) => Number((await db.deleteFrom('sessions').where('expires_at', '<', at).executeTakeFirst()).numDeletedRows),
  };
}
