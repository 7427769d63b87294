/**
 * The repos of second factors (migration 0017): a user's TOTP factor, its secret sealed at rest
 * under SECRETS_KEY like TSIG secrets (bound to the user's row), and their recovery codes, hashed.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../schema';
import type { SecretBox } from '../../secret-box';
import type { Repos } from '../../types';

/**
 * Used steps are kept this many steps (30 s each: two days) either side of the latest: a clock
 * stepped back by less than that cannot bring a used code back. Older ones could not be accepted
 * anyway (a code is good for one step either side of now).
 */
const USED_STEPS_KEPT = 2 * 2880;

export function createFactorRepos(db: Kysely<Database>, box: SecretBox): Pick<Repos, 'secondFactors' | 'passkeys'> {
  const aad = (userId: number) => `totp:${userId}`;

  // One insert on the (user, step) key: two requests with the same code cannot both pass.
  async function useStep(userId: number, step: number): Promise<boolean> {
    const inserted = await db
      .insertInto('totp_used_steps')
      .values({ user_id: userId, step })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
    await db
      .deleteFrom('totp_used_steps')
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('step', '<', step - USED_STEPS_KEPT), eb('step', '>', step + USED_STEPS_KEPT)]))
      .execute();
    return true;
  }

  return {
    secondFactors: {
      totp: async (userId) => {
        const r = await db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();
        return r && { ...r, secret: box.open(r.secret, aad(userId)), last_step: Number(r.last_step) };
      },
      setTotp: async (userId, secret, at) => {
        const sealed = box.seal(secret, aad(userId));
        await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
        // A new secret's codes owe nothing to the old one's.
        await db.deleteFrom('totp_used_steps').where('user_id', '=', userId).execute();
        await db.insertInto('totp_factors').values({ user_id: userId, secret: sealed, created_at: at, confirmed_at: null, last_step: 0 }).execute();
      },
      confirmTotp: async (userId, at, step) => {
        await db.updateTable('totp_factors').set({ confirmed_at: at, last_step: step }).where('user_id', '=', userId).execute();
        await useStep(userId, step);
      },
      useStep,
      remove: async (userId) => {
        await db.deleteFrom('totp_used_steps').where('user_id', '=', userId).execute();
        await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
      },
      setRecoveryCodes: async (userId, hashes) => {
        await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        if (hashes.length)
          await db
            .insertInto('recovery_codes')
            .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
            .execute();
      },
      useRecoveryCode: async (userId, hash, at) =>
        Number(
          (await db.updateTable('recovery_codes').set({ used_at: at }).where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst()).numUpdatedRows,
        ) === 1,
      recoveryCodesLeft: async (userId) => {
        const r = await db
          .selectFrom('recovery_codes')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        return Number(r?.n ?? 0);
      },
    },
    passkeys: {
      insert: async (row) => {
        await db
          .insertInto('passkeys')
          .values({ ...row, transports: JSON.stringify(row.transports) })
          .execute();
      },
      byId: async (id) => {
        const r = await db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
        return r && passkeyRow(r);
      },
      byUser: async (userId) => (await db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()).map(passkeyRow),
      used: async (id, counter, at) => {
        await db.updateTable('passkeys').set({ counter, last_used_at: at }).where('id', '=', id).execute();
      },
      delete: async (userId, id) => Number((await db.deleteFrom('passkeys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
      addChallenge: async (challenge, purpose, userId, expiresAt) => {
        await db.deleteFrom('webauthn_challenges').where('expires_at', '<', new Date().toISOString()).execute();
        await db.insertInto('webauthn_challenges').values({ challenge, purpose, user_id: userId, expires_at: expiresAt }).execute();
      },
      takeChallenge: async (challenge, purpose, userId, now) => {
        let q = db.deleteFrom('webauthn_challenges').where('challenge', '=', challenge).where('purpose', '=', purpose).where('expires_at', '>', now);
        q = userId === null ? q : q.where('user_id', '=', userId);
        return Number((await q.executeTakeFirst()).numDeletedRows) === 1;
      },
    },
  };
}

const passkeyRow = (r: { id: string; user_id: number; name: string; public_key: string; counter: number | string; transports: string; created_at: string; last_used_at: string | null }) => ({
  ...r,
  counter: Number(r.counter),
  transports: JSON.parse(r.transports) as string[],
});
