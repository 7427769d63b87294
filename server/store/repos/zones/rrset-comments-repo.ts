/** The `rrsetComments` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import { Prepared } from '../prepared';
import type { RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

/**
 * The comments at one name: read by every record write (its answer carries the RRset's comment),
 * so compiled once rather than built by kysely on each call (a tenth of a write's time).
 */
const AT_NAME = new Prepared((db, a) =>
  db.selectFrom('rrset_comments').select(['name', 'record_type', 'content', 'account', 'modified_at']).where('domain_id', '=', a(0)).where('name', '=', a(1)).orderBy('id'),
);

export function rrsetCommentsRepo({ db, p }: RepoContext): Repos['rrsetComments'] {
  return {
    byDomain: async (domainId, name) => {
      const rows =
        name !== undefined
          ? await p.rows(AT_NAME, [domainId, name])
          : await db.selectFrom('rrset_comments').select(['name', 'record_type', 'content', 'account', 'modified_at']).where('domain_id', '=', domainId).orderBy('id').execute();
      return rows.map((r) => ({ ...r, modified_at: Number(r.modified_at) }));
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
