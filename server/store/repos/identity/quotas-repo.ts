/** The `quotas` repo of the Store interface (see repos.ts), over kysely for SQLite and PostgreSQL alike. */

import { sql } from 'kysely';
import { QUOTA_LOCKS, type RepoContext } from '../repo-kit';
import type { Repos } from '../../types';

export function quotasRepo({ db, dialect, zones }: RepoContext): Repos['quotas'] {
  return {
    lock: async (kind, userId) => {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${QUOTA_LOCKS[kind]}, ${userId})`.execute(db);
    },
    count: async (kind, userId) => {
      const q =
        kind === 'zones'
          ? sql<{ n: number }>`select count(*) as n from domains where user_id = ${userId}`
          : kind === 'tsig-keys'
            ? sql<{ n: number }>`select count(*) as n from tsig_keys where user_id = ${userId}`
            : kind === 'webhooks'
              ? sql<{ n: number }>`select count(*) as n from webhooks where user_id = ${userId}`
              : sql<{ n: number }>`select count(*) as n from tokens t where t.user_id = ${userId} and not exists (select 1 from sessions s where s.token_id = t.id)`;
      return Number((await q.execute(db)).rows[0]?.n ?? 0);
    },
  };
}
