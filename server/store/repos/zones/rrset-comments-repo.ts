/** The `rrsetComments` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import type { RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

export function rrsetCommentsRepo({ db }: RepoContext): Repos['rrsetComments'] {
  return {
    byDomain: async (domainId, name) => {
      let q = db.selectFrom('rrset_comments').select(['name', 'record_type', 'content', 'account', 'modified_at']).where('domain_id', '=', domainId);
      if (name !== undefined) q = q.where('name', '=', name);
      return (await q.orderBy('id').execute()).map((r) => ({ ...r, modified_at: Number(r.modified_at) }));
    },
    replace: async (domainId, name, recordType, list) => {
      await db.deleteFrom('rrset_comments').where('domain_id', '=', domainId).where('name', '=', name).where('record_type', '=', recordType).execute();
      if (list.length > 0)
        await db
          .insertInto('rrset_comments')
          .values(list.map((c) => ({ domain_id: domainId, name, record_type: recordType, ...c })))
          .execute();
    },
  };
}
