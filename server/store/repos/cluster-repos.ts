/**
 * The repos of what nodes share besides zone data (migration 0008): failed sign-ins, the
 * catalog zone's serial, and the messages a transaction publishes to every node.
 */
import { sql, type Kysely } from 'kysely';
import { nextSerial } from '../../core/soa';
import type { Dialect } from '../migrate';
import type { Database } from '../schema';
import type { Repos } from '../types';

/** The channel of zone messages (PostgreSQL NOTIFY/LISTEN). */
export const ZONES_CHANNEL = 'zonedeck_zones';

export function createClusterRepos(db: Kysely<Database>, dialect: Dialect): Pick<Repos, 'signInFailures' | 'catalog' | 'publish'> {
  return {
    signInFailures: {
      byKeys: async (keys) => {
        if (keys.length === 0) return [];
        const rows = await db.selectFrom('sign_in_failures').selectAll().where('key', 'in', keys).execute();
        return rows.map((r) => ({ ...r, last_at: Number(r.last_at) }));
      },
      add: async (keys, at, forgottenBefore) => {
        if (keys.length === 0) return;
        await db
          .insertInto('sign_in_failures')
          .values(keys.map((key) => ({ key, failures: 1, last_at: at })))
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({
              failures: sql`case when sign_in_failures.last_at >= ${forgottenBefore} then sign_in_failures.failures + 1 else 1 end`,
              last_at: at,
            }),
          )
          .execute();
      },
      clear: async (keys) => {
        if (keys.length === 0) return;
        await db.deleteFrom('sign_in_failures').where('key', 'in', keys).execute();
      },
      reserve: (keys, at, forgottenBefore, waitFor) =>
        db.transaction().execute(async (trx) => {
          if (dialect === 'postgres') {
            // A row for each key to lock, so that a first attempt races nobody either.
            await trx
              .insertInto('sign_in_failures')
              .values(keys.map((key) => ({ key, failures: 0, last_at: at })))
              .onConflict((oc) => oc.column('key').doNothing())
              .execute();
          }
          let q = trx.selectFrom('sign_in_failures').selectAll().where('key', 'in', keys);
          if (dialect === 'postgres') q = q.forUpdate();
          const rows = (await q.execute()).map((r) => ({ ...r, last_at: Number(r.last_at) }));
          const wait = waitFor(rows);
          if (wait > 0) return wait;
          await trx
            .insertInto('sign_in_failures')
            .values(keys.map((key) => ({ key, failures: 1, last_at: at })))
            .onConflict((oc) =>
              oc.column('key').doUpdateSet({
                failures: sql`case when sign_in_failures.last_at >= ${forgottenBefore} then sign_in_failures.failures + 1 else 1 end`,
                last_at: at,
              }),
            )
            .execute();
          return 0;
        }),
      forgive: async (keys) => {
        if (keys.length === 0) return;
        await db
          .updateTable('sign_in_failures')
          .set({ failures: sql`failures - 1` })
          .where('key', 'in', keys)
          .where('failures', '>', 0)
          .execute();
      },
      prune: async (before) => Number((await db.deleteFrom('sign_in_failures').where('last_at', '<', before).executeTakeFirst()).numDeletedRows),
    },
    catalog: {
      serial: async () => Number((await db.selectFrom('catalog').select('serial').where('id', '=', 1).executeTakeFirstOrThrow()).serial),
      // nextSerial in one statement: PostgreSQL's row lock (and SQLite's write lock) orders concurrent bumps.
      bump: async (now) => {
        const today = nextSerial(0, now);
        const row = await db
          .updateTable('catalog')
          .set({ serial: sql`case when serial + 1 > ${today} then serial + 1 else ${today} end` })
          .where('id', '=', 1)
          .returning('serial')
          .executeTakeFirstOrThrow();
        return Number(row.serial);
      },
    },
    // A function is called only where there is someone to tell (the message costs a little to encode).
    publish: async (payload) => {
      if (dialect === 'postgres') await sql`select pg_notify(${ZONES_CHANNEL}, ${typeof payload === 'function' ? payload() : payload})`.execute(db);
    },
  };
}
