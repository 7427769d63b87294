/** The `zoneAttributes` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import type { RepoContext } from '../repo-kit';
import type { Repos, ZoneAttributes } from '../../types';

export function zoneAttributesRepo({ db }: RepoContext): Repos['zoneAttributes'] {
  return {
    get: async (domainIds) => {
      const out = new Map<number, ZoneAttributes>();
      if (domainIds.length === 0) return out;
      for (const r of await db
        .selectFrom('zone_attributes')
        .selectAll()
        .where('domain_id', 'in', [...domainIds])
        .execute()) {
        out.set(Number(r.domain_id), { account: r.account, soa_edit_api: r.soa_edit_api, catalog: r.catalog });
      }
      return out;
    },
    set: async (domainId, a) => {
      await db
        .insertInto('zone_attributes')
        .values({ domain_id: domainId, ...a })
        .onConflict((oc) => oc.column('domain_id').doUpdateSet({ account: a.account, soa_edit_api: a.soa_edit_api, catalog: a.catalog }))
        .execute();
    },
  };
}
