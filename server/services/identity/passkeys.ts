/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: a user registers passkeys on
 * their Account page and signs in with one alone (a discoverable credential: no username). User
 * verification is required (the passkey itself is two factors: the device and its PIN or
 * biometrics); challenges are stored server-side, single use and short-lived; the signature
 * counter must move on (a cloned authenticator is refused). The relying party is the site the
 * dashboard is served at: PUBLIC_URL, or the request's own origin.
 */
import { randomBytes } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Conflict, Invalid, NotFound } from '../../core/errors';
import { textProblem } from '../../core/text-rules';
import type { PasskeyRow, ServiceStore, UserRow } from '../../store/types';
import type { Audit, AuditActor } from './audit';

/** The relying party: the dashboard's origin and its host name (the RP ID). */
export interface RelyingParty {
  origin: string;
  id: string;
}

/**
 * The WebAuthn library, loaded at the first passkey ceremony rather than at every start: with the
 * X.509 and ASN.1 packages under it, loading it took ~40 ms of a start's CPU and its memory for good.
 */
const webauthn = () => import('@simplewebauthn/server');

export const rpOf = (origin: string): RelyingParty => ({ origin, id: new URL(origin).hostname });

const CHALLENGE_MS = 5 * 60_000;
/** Most passkeys one user may hold. */
export const MAX_PASSKEYS = 20;
const MAX_NAME = 64;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

export function createPasskeys(store: ServiceStore, audit: Audit, now: () => number = Date.now) {
  const expiry = () => new Date(now() + CHALLENGE_MS).toISOString();
  /** A challenge check for the library: true only for a stored, live challenge, which it then uses up. */
  const taken = (purpose: 'register' | 'authenticate', userId: number | null) => (challenge: string) => store.passkeys.takeChallenge(challenge, purpose, userId, new Date(now()).toISOString());

  return {
    list: (userId: number) => store.passkeys.byUser(userId),

    async registrationOptions(user: Pick<UserRow, 'id' | 'username'>, rp: RelyingParty) {
      const existing = await store.passkeys.byUser(user.id);
      if (existing.length >= MAX_PASSKEYS) throw new Conflict(`you already hold ${MAX_PASSKEYS} passkeys, the most one user may: remove one first`);
      const options = await (
        await webauthn()
      ).generateRegistrationOptions({
        rpName: 'zonedeck',
        rpID: rp.id,
        userName: user.username,
        userID: new TextEncoder().encode(`zonedeck-user-${user.id}`),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await store.passkeys.addChallenge(options.challenge, 'register', user.id, expiry());
      return options;
    },

    async register(actor: AuditActor & { userId: number }, rawName: unknown, response: RegistrationResponseJSON, rp: RelyingParty): Promise<PasskeyRow> {
      const name = typeof rawName === 'string' ? rawName.trim() : '';
      if (!name || name.length > MAX_NAME || textProblem(name)) throw Invalid.field('name', `must be 1–${MAX_NAME} characters of text, e.g. "Laptop" or "Phone"`);
      let verified;
      try {
        verified = await (
          await webauthn()
        ).verifyRegistrationResponse({ response, expectedChallenge: taken('register', actor.userId), expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true });
      } catch (e) {
        throw Invalid.field('response', `the passkey could not be verified: ${e instanceof Error ? e.message.slice(0, 200) : 'unknown error'}`);
      }
      if (!verified.verified) throw Invalid.field('response', 'the passkey could not be verified');
      const { credential } = verified.registrationInfo;
      if (await store.passkeys.byId(credential.id)) throw new Conflict('this passkey is already registered');
      const row: PasskeyRow = {
        id: credential.id,
        user_id: actor.userId,
        name,
        public_key: b64url(credential.publicKey),
        counter: credential.counter,
        transports: (credential.transports ?? []).slice(0, 8),
        created_at: new Date(now()).toISOString(),
        last_used_at: null,
      };
      await store.passkeys.insert(row);
      await audit.record({ kind: 'passkey-added', actor, subject: { id: actor.userId, username: actor.username }, detail: { name } });
      return row;
    },

    async remove(actor: AuditActor & { userId: number }, id: string): Promise<void> {
      const key = (await store.passkeys.byUser(actor.userId)).find((p) => p.id === id);
      if (!key || !(await store.passkeys.delete(actor.userId, id))) throw new NotFound('no such passkey');
      await audit.record({ kind: 'passkey-removed', actor, subject: { id: actor.userId, username: actor.username }, detail: { name: key.name } });
    },

    /** Options for a sign-in with any passkey of this site (the browser offers the user's discoverable ones). */
    async authenticationOptions(rp: RelyingParty) {
      const options = await (await webauthn()).generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', challenge: randomBytes(32) });
      await store.passkeys.addChallenge(options.challenge, 'authenticate', null, expiry());
      return options;
    },

    /** The user a passkey sign-in proves, or null (unknown passkey, bad signature, used challenge, counter gone back, disabled user). */
    async authenticate(response: AuthenticationResponseJSON, rp: RelyingParty): Promise<{ user: UserRow; passkey: PasskeyRow } | null> {
      if (typeof response?.id !== 'string' || response.id.length > 1024) return null;
      const key = await store.passkeys.byId(response.id);
      if (!key) return null;
      try {
        const result = await (
          await webauthn()
        ).verifyAuthenticationResponse({
          response,
          expectedChallenge: taken('authenticate', null),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: true,
          credential: { id: key.id, publicKey: Buffer.from(key.public_key, 'base64url'), counter: key.counter, transports: key.transports },
        });
        if (!result.verified) return null;
        await store.passkeys.used(key.id, result.authenticationInfo.newCounter, new Date(now()).toISOString());
      } catch {
        return null;
      }
      const user = await store.users.byId(key.user_id);
      if (!user || user.disabled_at) return null;
      return { user, passkey: key };
    },
  };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
