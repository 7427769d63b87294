/** Sign-in: the dashboard's sessions, second factors, passkeys, single sign-on identities and failed sign-ins. */
import type { UserRow } from './accounts';

export interface SessionRow {
  id_hash: string;
  user_id: number;
  token_id: number;
  token_sealed: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** When the user last proved who they are in this session (sign-in, or asked again); null: at created_at. */
  authenticated_at?: string | null;
  /** How the user signed in (migration 0018): `password` (the default), `passkey` or `oidc`. */
  sign_in_method?: string;
  /** The browser's User-Agent and the client's address at sign-in (migration 0034); null or absent: not known. */
  user_agent?: string | null;
  address?: string | null;
}

/** An OpenID identity (issuer and subject) linked to a user (migration 0018). */
export interface IdentityRow {
  id: number;
  issuer: string;
  subject: string;
  user_id: number;
  /** The address the provider last gave for it ('' when none). */
  email: string;
  created_at: string;
  last_used_at: string | null;
}

/** An authorization request in flight (migration 0018): its secrets stay on the server. */
export interface OidcLoginRow {
  state_hash: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  /** The dashboard page to land on after the sign-in (a path of this site). */
  next_path: string;
  expires_at: string;
  /** Migration 0023: the signed-in user who asked to link the identity to their account; null for a sign-in. */
  link_user_id?: number | null;
}

/** A sign-in through the provider that waits for the user's second factor (migration 0023). */
export interface PendingSignInRow {
  /** SHA-256 of the random value in the browser's cookie. */
  step_hash: string;
  user_id: number;
  issuer: string;
  email: string;
  /** How the identity came to the user: `linked`, or `created` (the user was made at this sign-in). */
  how: string;
  next_path: string;
  expires_at: string;
}

/** A passkey (WebAuthn credential) of a user. */
export interface PasskeyRow {
  /** The credential id, base64url. */
  id: string;
  user_id: number;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  transports: string[];
  created_at: string;
  last_used_at: string | null;
}

/** A user's TOTP factor (RFC 6238); `secret` base32, opened from its sealed form. */
export interface TotpFactorRow {
  user_id: number;
  secret: string;
  created_at: string;
  /** Null while enrolment waits for its first code. */
  confirmed_at: string | null;
  /** The last time step a code was accepted for: no code works twice. */
  last_step: number;
}

/** Failed sign-ins counted under one key (`user:<name>` or `addr:<address>`); times in ms since the epoch. */
export interface SignInFailureRow {
  key: string;
  failures: number;
  last_at: number;
}

export interface SignInRepos {
  sessions: {
    insert(row: SessionRow): Promise<SessionRow>;
    byIdHash(idHash: string): Promise<SessionRow | undefined>;
    touch(idHash: string, at: string): Promise<void>;
    delete(idHash: string): Promise<boolean>;
    /** Records that the session's user proved who they are now (asked again for a sensitive act). */
    authenticated(idHash: string, at: string): Promise<void>;
    /** The session whose token this is (a dashboard request's credential), if any. */
    byTokenId(tokenId: number): Promise<SessionRow | undefined>;
    /** The user's live sessions, newest first. */
    byUser(userId: number): Promise<SessionRow[]>;
    /** Removes sessions whose expires_at is before `at`; returns how many. */
    deleteExpired(at: string): Promise<number>;
  };
  secondFactors: {
    totp(userId: number): Promise<TotpFactorRow | undefined>;
    /** Starts (or restarts) enrolment with a new secret; unconfirmed until `confirmTotp`. */
    setTotp(userId: number, secret: string, at: string): Promise<void>;
    confirmTotp(userId: number, at: string, step: number): Promise<void>;
    /**
     * Records an accepted step unless it was used before (false: a code already used, or raced),
     * whether it is before or after the last one: after the clock steps back, the user's codes are
     * for steps before the last and must still work once each. Steps far from this one are forgotten.
     */
    useStep(userId: number, step: number): Promise<boolean>;
    /** Removes the TOTP factor and every recovery code. */
    remove(userId: number): Promise<void>;
    /** Replaces the user's recovery codes with these hashes. */
    setRecoveryCodes(userId: number, hashes: readonly string[]): Promise<void>;
    /** Marks the unused code with this hash used; false when there is none. */
    useRecoveryCode(userId: number, hash: string, at: string): Promise<boolean>;
    recoveryCodesLeft(userId: number): Promise<number>;
  };
  passkeys: {
    insert(row: PasskeyRow): Promise<void>;
    byId(id: string): Promise<PasskeyRow | undefined>;
    byUser(userId: number): Promise<PasskeyRow[]>;
    /** After a sign-in with it: the counter it reported and when. */
    used(id: string, counter: number, at: string): Promise<void>;
    delete(userId: number, id: string): Promise<boolean>;
    /** Stores a ceremony's challenge (single use, until `expiresAt`). */
    addChallenge(challenge: string, purpose: 'register' | 'authenticate', userId: number | null, expiresAt: string): Promise<void>;
    /** Takes (deletes) a live challenge of this purpose (and user, for a registration); false when there is none. */
    takeChallenge(challenge: string, purpose: 'register' | 'authenticate', userId: number | null, now: string): Promise<boolean>;
  };
  /** Single sign-on (migration 0018): linked identities, users' email addresses, requests in flight. */
  identities: {
    byIssuerSubject(issuer: string, subject: string): Promise<IdentityRow | undefined>;
    byUser(userId: number): Promise<IdentityRow[]>;
    /** Links an identity; false when (issuer, subject) is linked already (a race). */
    insert(row: Omit<IdentityRow, 'id'>): Promise<boolean>;
    used(id: number, email: string, at: string): Promise<void>;
    /** Users whose email is this (lower case) address. */
    usersByEmail(email: string): Promise<UserRow[]>;
    /** A user's email address (lower case), or null. */
    emailOf(userId: number): Promise<string | null>;
    setEmail(userId: number, email: string | null): Promise<void>;
    addLogin(row: OidcLoginRow): Promise<void>;
    /** Takes (deletes) the request with this state hash; undefined when there is none (unknown, or used already). */
    takeLogin(stateHash: string): Promise<OidcLoginRow | undefined>;
    /** Unlinks one of the user's identities; false when the user has none with this id. */
    unlink(userId: number, id: number): Promise<boolean>;
    addPending(row: PendingSignInRow): Promise<void>;
    pending(stepHash: string): Promise<PendingSignInRow | undefined>;
    /** Takes (deletes) a pending sign-in; undefined when another request took it first. */
    takePending(stepHash: string): Promise<PendingSignInRow | undefined>;
  };
  signInFailures: {
    byKeys(keys: readonly string[]): Promise<SignInFailureRow[]>;
    /** One more failure under each key at `at`; a key whose last failure is before `forgottenBefore` starts again from one. */
    add(keys: readonly string[], at: number, forgottenBefore: number): Promise<void>;
    clear(keys: readonly string[]): Promise<void>;
    /**
     * Reserves an attempt: in one transaction (the keys' rows locked on PostgreSQL),
     * `waitFor` judges the keys' rows; when it gives 0, one more failure is counted under each key
     * before the password is checked, so parallel guesses cannot all pass the check. Returns the wait.
     */
    reserve(keys: readonly string[], at: number, forgottenBefore: number, waitFor: (rows: SignInFailureRow[]) => number): Promise<number>;
    /** Takes back one reserved failure under each key (the attempt succeeded). */
    forgive(keys: readonly string[]): Promise<void>;
    /** Removes keys whose last failure is before `before`; returns how many. */
    prune(before: number): Promise<number>;
  };
}
