/** The `dnssecKeys` and `dnssecWatch` repos of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */
import type { Selectable } from 'kysely';
import { PUBLIC_KEY_COLUMNS, bool, type RepoContext } from '../repo-kit';
import type { Database } from '../../schema';
import type { DnssecPublicKey, DnssecWatch, KeyRole, KeyState, Repos } from '../../types';

type KeyColumns = Pick<Selectable<Database['dnssec_keys']>, (typeof PUBLIC_KEY_COLUMNS)[number]>;

/** A stored key's public half as the services read it: flags as booleans, role and state as their names. */
export const publicKey = (r: KeyColumns): DnssecPublicKey => ({
  ...r,
  role: r.role as KeyRole,
  state: r.state as KeyState,
  published: Boolean(r.published),
  signing: Boolean(r.signing),
  in_cds: Boolean(r.in_cds),
});

export function dnssecKeysRepo({ db, box, signingRow }: RepoContext): Repos['dnssecKeys'] {
  return {
    insert: async (row) =>
      publicKey(
        await db
          .insertInto('dnssec_keys')
          .values({ ...row, published: bool(row.published)!, signing: bool(row.signing)!, in_cds: bool(row.in_cds)!, private_key: box.seal(row.private_key, `dnssec:${row.domain_id}`) })
          .returning(PUBLIC_KEY_COLUMNS)
          .executeTakeFirstOrThrow(),
      ),
    signingKeys: async (domainId) => (await db.selectFrom('dnssec_keys').selectAll().where('domain_id', '=', domainId).orderBy('id').execute()).map(signingRow),
    publicKeys: async (domainIds) => {
      if (domainIds.length === 0) return [];
      return (await db.selectFrom('dnssec_keys').select(PUBLIC_KEY_COLUMNS).where('domain_id', 'in', domainIds).orderBy('id').execute()).map(publicKey);
    },
    update: async (id, f) => {
      await db
        .updateTable('dnssec_keys')
        .set({ state: f.state, state_at: f.state_at, published: bool(f.published)!, signing: bool(f.signing)!, in_cds: bool(f.in_cds)! })
        .where('id', '=', id)
        .execute();
    },
    delete: async (id) => Number((await db.deleteFrom('dnssec_keys').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    deleteByDomain: async (domainId) => Number((await db.deleteFrom('dnssec_keys').where('domain_id', '=', domainId).executeTakeFirst()).numDeletedRows),
  };
}

export function dnssecWatchRepo({ db }: RepoContext): Repos['dnssecWatch'] {
  return {
    get: async (domainId) => {
      const r = await db.selectFrom('dnssec_watch').selectAll().where('domain_id', '=', domainId).executeTakeFirst();
      if (!r) return null;
      const watch: DnssecWatch = {
        domain_id: r.domain_id,
        checked_at: r.checked_at,
        parent_ds: r.parent_ds === null ? null : (JSON.parse(r.parent_ds) as string[]),
        seen_at: r.seen_at,
        seen_ttl: r.seen_ttl,
        error: r.error,
      };
      return watch;
    },
    due: async (now, limit) => {
      const rows = await db
        .selectFrom('domains as d')
        .leftJoin('dnssec_watch as w', 'w.domain_id', 'd.id')
        .select('d.id')
        .where('d.dnssec_enabled', '=', 1)
        .where('d.kind', '=', 'primary')
        .where((eb) =>
          eb.or([
            eb('w.domain_id', 'is', null),
            eb.and([
              eb.or([eb('w.next_at', 'is', null), eb('w.next_at', '<=', now), eb('w.checked_at', '<', eb.ref('d.updated_at'))]),
              eb.or([eb('w.lease_until', 'is', null), eb('w.lease_until', '<', now)]),
            ]),
          ]),
        )
        .orderBy('d.id')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },
    lease: async (domainId, holder, now, until) => {
      await db
        .insertInto('dnssec_watch')
        .values({ domain_id: domainId })
        .onConflict((oc) => oc.column('domain_id').doNothing())
        .execute();
      const r = await db
        .updateTable('dnssec_watch')
        .set({ lease_holder: holder, lease_until: until })
        .where('domain_id', '=', domainId)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_holder', '=', holder)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    release: async (domainId, holder, seen) => {
      await db
        .updateTable('dnssec_watch')
        .set({ ...seen, parent_ds: seen.parent_ds === null ? null : JSON.stringify(seen.parent_ds), lease_holder: null, lease_until: null })
        .where('domain_id', '=', domainId)
        .where('lease_holder', '=', holder)
        .execute();
    },
  };
}
