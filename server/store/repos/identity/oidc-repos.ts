/**
 * The repos of single sign-on and service settings (migrations 0018, 0023): OpenID identities
 * linked to users, users' email addresses, authorization requests in flight, sign-ins waiting for
 * a second factor, and the settings table.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../schema';
import { userRow } from '../repo-kit';
import type { Repos } from '../../types';

export function createOidcRepos(db: Kysely<Database>): Pick<Repos, 'identities' | 'settings'> {
  return {
    identities: {
      byIssuerSubject: (issuer, subject) => db.selectFrom('user_identities').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst(),
      byUser: (userId) => db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
      insert: async (row) => {
        // One statement: two first sign-ins of one identity racing link it once.
        const r = await db
          .insertInto('user_identities')
          .values(row)
          .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
          .executeTakeFirst();
        return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
      },
      used: async (id, email, at) => {
        await db.updateTable('user_identities').set({ email, last_used_at: at }).where('id', '=', id).execute();
      },
      usersByEmail: async (email) => (await db.selectFrom('users').selectAll().where('email', '=', email).orderBy('id').limit(2).execute()).map(userRow),
      emailOf: async (userId) => (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email ?? null,
      setEmail: async (userId, email) => {
        await db.updateTable('users').set({ email }).where('id', '=', userId).execute();
      },
      addLogin: async (row) => {
        await db.deleteFrom('oidc_logins').where('expires_at', '<', new Date().toISOString()).execute();
        await db.insertInto('oidc_logins').values(row).execute();
      },
      takeLogin: async (stateHash) => {
        const row = await db.selectFrom('oidc_logins').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
        if (!row) return undefined;
        // Only the request that deletes the row goes on: a replayed or raced callback finds nothing.
        const gone = Number((await db.deleteFrom('oidc_logins').where('state_hash', '=', stateHash).executeTakeFirst()).numDeletedRows);
        return gone === 1 ? row : undefined;
      },
      unlink: async (userId, id) => Number((await db.deleteFrom('user_identities').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()).numDeletedRows) === 1,
      addPending: async (row) => {
        await db.deleteFrom('pending_sign_ins').where('expires_at', '<', new Date().toISOString()).execute();
        await db.insertInto('pending_sign_ins').values(row).execute();
      },
      pending: (stepHash) => db.selectFrom('pending_sign_ins').selectAll().where('step_hash', '=', stepHash).executeTakeFirst(),
      takePending: async (stepHash) => {
        const row = await db.selectFrom('pending_sign_ins').selectAll().where('step_hash', '=', stepHash).executeTakeFirst();
        if (!row) return undefined;
        // Only the request that deletes the row signs in: two right codes sent at once make one session.
        const gone = Number((await db.deleteFrom('pending_sign_ins').where('step_hash', '=', stepHash).executeTakeFirst()).numDeletedRows);
        return gone === 1 ? row : undefined;
      },
    },
    settings: {
      get: async (key) => (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value,
      set: async (key, value) => {
        await db
          .insertInto('settings')
          .values({ key, value })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
          .execute();
      },
    },
  };
}
