/** The `dnssecKeys` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { PUBLIC_KEY_COLUMNS, type RepoContext } from '../repo-kit';
import type { DnssecPublicKey, Repos } from '../../types';

export function dnssecKeysRepo({ db, box, signingRow }: RepoContext): Repos['dnssecKeys'] {
  return {
    insert: async (row) =>
      (await db
        .insertInto('dnssec_keys')
        .values({ ...row, private_key: box.seal(row.private_key, `dnssec:${row.domain_id}`) })
        .returning(PUBLIC_KEY_COLUMNS)
        .executeTakeFirstOrThrow()) as DnssecPublicKey,
    signingKeys: async (domainId) => (await db.selectFrom('dnssec_keys').selectAll().where('domain_id', '=', domainId).orderBy('id').execute()).map(signingRow),
    publicKeys: async (domainIds) => {
      if (domainIds.length === 0) return [];
      return db.selectFrom('dnssec_keys').select(PUBLIC_KEY_COLUMNS).where('domain_id', 'in', domainIds).orderBy('id').execute();
    },
    delete: async (id) => Number((await db.deleteFrom('dnssec_keys').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    deleteByDomain: async (domainId) => Number((await db.deleteFrom('dnssec_keys').where('domain_id', '=', domainId).executeTakeFirst()).numDeletedRows),
  };
}
