/**
 * Second factors: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as every authenticator
 * app reads them) with 10 single-use recovery codes, stored hashed. A code is accepted one step
 * either side of now, and never twice: each accepted step is recorded under a unique key (so two
 * requests with the same code cannot both pass). Reuse is what is refused, not a step before the
 * last one: after the server's clock steps back, the user's codes belong to earlier steps and work
 * at once, each once. The secret is sealed at rest.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { Conflict, Invalid, ReauthenticationRequired } from '../../core/errors';
import type { ServiceStore, SessionRow, UserRow } from '../../store/types';
import type { Audit, AuditActor } from './audit';

export const RECOVERY_CODES = 10;
/** How recent a sign-in must be for a sensitive act. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;
const PERIOD = 30;
const ISSUER = 'zonedeck';

export type Factor = 'totp' | 'recovery-code';

/**
 * Refuses a sensitive act when the session's last proof of who its user is (sign-in, or asked
 * again) is more than 10 minutes before `at`: a browser left open, or a stolen cookie, must not
 * add a credential or act on another user without the password (or provider) once more.
 */
export function requireRecent(session: Pick<SessionRow, 'authenticated_at' | 'created_at'>, at: number, what: string): void {
  const proved = Date.parse(session.authenticated_at ?? session.created_at);
  if (at - proved > RECENT_SIGN_IN_MS) throw new ReauthenticationRequired(`${what} needs a sign-in within the last 10 minutes: enter your password again`);
}

const totpOf = (secret: string, label: string) => new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** A recovery code as typed (any case, dashes and spaces) in the form it is hashed. */
const normalizeCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
export const hashRecoveryCode = (code: string) => createHash('sha256').update(normalizeCode(code)).digest('hex');

/** `xxxxx-xxxxx`: 50 random bits in base32 (no 0/1/8/9 to misread). */
function newRecoveryCode(): string {
  const s = new Secret({ buffer: randomBytes(7).buffer as ArrayBuffer }).base32.toLowerCase().slice(0, 10);
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

export function createSecondFactors(store: ServiceStore, audit: Audit, now: () => number = Date.now) {
  async function newCodes(userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await store.secondFactors.setRecoveryCodes(userId, codes.map(hashRecoveryCode));
    return codes;
  }

  /** The time step a TOTP code belongs to (±1 step of now), or null. */
  function stepOf(secret: string, code: string): number | null {
    const token = code.replace(/\s/g, '');
    if (!/^[0-9]{6}$/.test(token)) return null;
    const at = now();
    const delta = totpOf(secret, 'x').validate({ token, timestamp: at, window: 1 });
    return delta === null ? null : Math.floor(at / 1000 / PERIOD) + delta;
  }

  return {
    /** What the Account page shows. */
    async status(userId: number): Promise<{ totp: 'off' | 'pending' | 'on'; recovery_codes_left: number }> {
      const f = await store.secondFactors.totp(userId);
      return { totp: !f ? 'off' : f.confirmed_at ? 'on' : 'pending', recovery_codes_left: f?.confirmed_at ? await store.secondFactors.recoveryCodesLeft(userId) : 0 };
    },

    /** Whether signing in needs a second factor. */
    async required(userId: number): Promise<boolean> {
      return Boolean((await store.secondFactors.totp(userId))?.confirmed_at);
    },

    /** Starts enrolment: a new secret, shown once (with the otpauth URI a QR code carries); unconfirmed until a code proves the app has it. */
    async startTotp(user: Pick<UserRow, 'id' | 'username'>): Promise<{ secret: string; otpauth_uri: string }> {
      if (await this.required(user.id)) throw new Conflict('two-factor sign-in is already on: remove it first to enrol another app');
      const secret = new Secret({ size: 20 }).base32;
      await store.secondFactors.setTotp(user.id, secret, new Date(now()).toISOString());
      return { secret, otpauth_uri: totpOf(secret, user.username).toString() };
    },

    /** Confirms enrolment with a first code; returns the recovery codes, shown once. */
    async confirmTotp(actor: AuditActor & { userId: number }, code: string): Promise<string[]> {
      const f = await store.secondFactors.totp(actor.userId);
      if (!f || f.confirmed_at) throw new Conflict(f ? 'two-factor sign-in is already on' : 'start the enrolment first');
      const step = stepOf(f.secret, code);
      if (step === null) throw Invalid.field('code', 'is not the current code of your authenticator app (check its clock)');
      await store.secondFactors.confirmTotp(actor.userId, new Date(now()).toISOString(), step);
      const codes = await newCodes(actor.userId);
      await audit.record({ kind: 'totp-enabled', actor, subject: { id: actor.userId, username: actor.username } });
      return codes;
    },

    /** New recovery codes (the old ones stop working). */
    async regenerateRecoveryCodes(actor: AuditActor & { userId: number }): Promise<string[]> {
      if (!(await this.required(actor.userId))) throw new Conflict('two-factor sign-in is off: there are no recovery codes to renew');
      const codes = await newCodes(actor.userId);
      await audit.record({ kind: 'recovery-codes-renewed', actor, subject: { id: actor.userId, username: actor.username } });
      return codes;
    },

    /** The user turns their TOTP factor off (its recovery codes go with it); an administrator's reset is `users.resetSecondFactors`. */
    async removeTotp(actor: AuditActor, user: Pick<UserRow, 'id' | 'username'>): Promise<void> {
      const f = await store.secondFactors.totp(user.id);
      if (!f) return;
      await store.secondFactors.remove(user.id);
      await audit.record({ kind: 'totp-removed', actor, subject: { id: user.id, username: user.username } });
    },

    /** The factor a sign-in code proves (a TOTP code, or an unused recovery code, which is then used up), or null. */
    async verify(userId: number, code: string): Promise<Factor | null> {
      if (code.length > 64) return null;
      const f = await store.secondFactors.totp(userId);
      if (!f?.confirmed_at) return null;
      const step = stepOf(f.secret, code);
      if (step !== null) return (await store.secondFactors.useStep(userId, step)) ? 'totp' : null;
      return (await store.secondFactors.useRecoveryCode(userId, hashRecoveryCode(code), new Date(now()).toISOString())) ? 'recovery-code' : null;
    },

    /**
     * A sensitive act by a dashboard session needs a sign-in within the last 10 minutes (the
     * dashboard then asks for the password again: POST /bff/reauthenticate). An API token is a
     * credential of its own, made by someone who signed in: it is not asked.
     */
    async requireRecentSignIn(tokenId: number, what: string): Promise<void> {
      const session = await store.sessions.byTokenId(tokenId);
      if (session) requireRecent(session, now(), what);
    },
  };
}

export type SecondFactors = ReturnType<typeof createSecondFactors>;
