/**
 * Single sign-on with OpenID Connect through openid-client: the authorization
 * code flow with PKCE (S256), state and nonce, all three kept server-side in a single-use row
 * that lives 10 minutes and is bound to the browser that started it (the hash of a random value
 * in its cookie). The library verifies the ID token (signature, issuer, audience, expiry, nonce).
 *
 * Who signs in: the user the identity (issuer, subject) is linked to; else, with OIDC_AUTO_CREATE,
 * a new user. An identity is never linked to an existing account by a matching email address (a
 * provider whose users may set their own address, or one taken over, would hand out accounts,
 * an administrator's among them): the account's owner links it, signed in, from their Account
 * page. Disabled users are refused like at every other door.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OidcConfig } from '../../config';
import { Conflict, NotFound } from '../../core/errors';
import type { IdentityRow, PendingSignInRow, ServiceStore, UserRow } from '../../store/types';
import type { Accounts } from './accounts';
import type { Audit, AuditActor } from './audit';

/** How long an authorization request may take, from the button to the callback. */
export const LOGIN_MS = 10 * 60_000;
const MAX_CLAIM = 255;
const MAX_EMAIL = 254;

/** Why a callback is refused; `code` goes to the sign-in page (`/sign-in?error=<code>`), which words it. */
export type OidcRefusalCode = 'sso_expired' | 'sso_failed' | 'sso_denied' | 'sso_no_account' | 'sso_not_linked' | 'sso_taken' | 'sso_disabled' | 'sso_unavailable';

export class OidcRefusal extends Error {
  constructor(
    readonly code: OidcRefusalCode,
    message: string,
    /** The refused request was a link from the Account page (so the answer lands there). */
    readonly link = false,
  ) {
    super(message);
  }
}

/** The provider cannot be reached (discovery failed): the button answers 503 and discovery is tried again next time. */
export class OidcUnavailable extends Error {}

export interface OidcSignIn {
  kind: 'sign-in';
  user: UserRow;
  /** The dashboard page the sign-in was started from, to land on. */
  next: string;
  identity: Pick<IdentityRow, 'issuer' | 'subject' | 'email'>;
  /** How the identity came to this user this time: it was linked before, or its user was made now. */
  how: 'linked' | 'created';
}

/** A signed-in user linked the provider's identity to their account (from the Account page). */
export interface OidcLink {
  kind: 'link';
  user: UserRow;
  next: string;
  identity: Pick<IdentityRow, 'issuer' | 'subject' | 'email'>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/** A value to bind a browser with, for its cookie. */
export const newBrowserSecret = () => randomBytes(32).toString('base64url');

const USERNAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A valid username made from a provider's name for someone (`preferred_username`, or the email's local part). */
export function usernameFrom(wanted: string): string {
  const cleaned = wanted
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[._-]+$/, '');
  return USERNAME.test(cleaned) ? cleaned : 'user';
}

/** A path of this site to return to (never another site's: `//evil.example`, `/\\evil`), or `/`. */
export function safePath(p: string | undefined | null): string {
  if (!p || p.length > 512 || !p.startsWith('/') || p.startsWith('//') || p.startsWith('/\\') || /[\u0000-\u001f\u007f\\]/.test(p)) return '/';
  return p;
}

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

export function createOidc(store: ServiceStore, accounts: Accounts, audit: Audit, config: OidcConfig | undefined, opts: { fetch?: typeof fetch; now?: () => number } = {}) {
  const now = opts.now ?? Date.now;
  let discovered: Promise<client.Configuration> | undefined;

  /** The provider's configuration, discovered once; a failure is forgotten, so the next sign-in tries again. */
  function provider(): Promise<client.Configuration> {
    if (!config) throw new OidcUnavailable('single sign-on is not configured');
    discovered ??= client
      .discovery(new URL(config.issuer), config.clientId, undefined, client.ClientSecretBasic(config.clientSecret), {
        timeout: 10,
        ...(new URL(config.issuer).protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        ...(opts.fetch ? { [client.customFetch]: opts.fetch as unknown as client.CustomFetch } : {}),
      })
      .catch((e: unknown) => {
        discovered = undefined;
        throw new OidcUnavailable(`the OpenID provider ${config.issuer} cannot be reached: ${e instanceof Error ? e.message : String(e)}`);
      });
    return discovered;
  }

  /** The user an identity signs in as (the one it is linked to, or one made for it as the rules say), or a refusal. */
  async function userFor(issuer: string, subject: string, email: string | undefined, verified: boolean, preferred: string | undefined): Promise<{ user: UserRow; how: OidcSignIn['how'] }> {
    const at = new Date(now()).toISOString();
    const known = await store.identities.byIssuerSubject(issuer, subject);
    if (known) {
      const user = await store.users.byId(known.user_id);
      if (!user) throw new OidcRefusal('sso_no_account', 'no account for this identity; ask an admin');
      await store.identities.used(known.id, email ?? '', at);
      return { user, how: 'linked' };
    }
    const actor = { username: '', credential: 'oidc' };
    // An account with this address exists: its owner links the identity, signed in; no second account is made for it.
    if (email && verified && (await store.identities.usersByEmail(email)).length > 0) {
      throw new OidcRefusal('sso_not_linked', 'this identity is not linked to an account yet: sign in another way, then link it on your Account page');
    }
    if (!config?.autoCreate) throw new OidcRefusal('sso_no_account', 'no account for this identity; ask an admin');
    const base = usernameFrom(preferred ?? email?.split('@')[0] ?? 'user');
    for (let n = 1; n <= 50; n++) {
      const suffix = n === 1 ? '' : `-${n <= 20 ? n : randomBytes(3).toString('hex')}`;
      const name = `${base.slice(0, 64 - suffix.length).replace(/[._-]+$/, '')}${suffix}`;
      if (await store.users.byUsername(name)) continue;
      let user: UserRow;
      try {
        // A random password nobody is told: this user signs in through the provider (or a password an admin sets later).
        ({ user } = await accounts.addUser(name));
      } catch (e) {
        if (e instanceof Conflict) continue; // taken meanwhile
        throw e;
      }
      if (email && verified) await store.identities.setEmail(user.id, email);
      if (!(await store.identities.insert({ issuer, subject, user_id: user.id, email: email ?? '', created_at: at, last_used_at: at }))) {
        // The same identity's first sign-in raced this one and won: sign in as its user.
        const winner = await store.identities.byIssuerSubject(issuer, subject);
        const other = winner && (await store.users.byId(winner.user_id));
        if (other) return { user: other, how: 'linked' };
      }
      await audit.record({ kind: 'user-created', actor, subject: { id: user.id, username: user.username }, detail: { is_admin: false, via: 'oidc', issuer, ...(email ? { email } : {}) } });
      return { user, how: 'created' };
    }
    throw new OidcRefusal('sso_no_account', 'no free username for this identity; ask an admin to create the account');
  }

  /** Links an identity to the signed-in user who asked (from their Account page); refused when it is another user's already. */
  async function linkTo(userId: number, identity: Pick<IdentityRow, 'issuer' | 'subject' | 'email'>): Promise<UserRow> {
    const user = await store.users.byId(userId);
    if (!user || user.disabled_at) throw new OidcRefusal('sso_disabled', 'this account is disabled; ask an admin', true);
    const at = new Date(now()).toISOString();
    const inserted = await store.identities.insert({ ...identity, user_id: user.id, created_at: at, last_used_at: null });
    if (!inserted) {
      const known = await store.identities.byIssuerSubject(identity.issuer, identity.subject);
      if (known?.user_id !== user.id) throw new OidcRefusal('sso_taken', 'this identity signs in to another account already: unlink it there first', true);
      return user;
    }
    await audit.record({
      kind: 'identity-linked',
      actor: { userId: user.id, username: user.username, credential: 'session' },
      subject: { id: user.id, username: user.username },
      detail: { issuer: identity.issuer, email: identity.email, by: 'account page' },
    });
    return user;
  }

  return {
    /** Whether single sign-on is configured (OIDC_ISSUER and its client). */
    configured: config !== undefined,
    /** The button's label (OIDC_NAME), or null when single sign-on is not configured. */
    name: config ? config.name : null,
    /** OIDC_SKIP_2FA: the provider's sign-in stands for zonedeck's second factor. */
    skipsSecondFactor: config?.skipSecondFactor ?? false,
    issuer: config?.issuer ?? null,

    /** Discovers the provider now (at start), so the first sign-in need not wait; a failure is tried again later. */
    warmUp: () => (config ? provider().then(() => true, () => false) : Promise.resolve(false)),

    /**
     * Starts an authorization request for the browser holding `browserSecret`: stores its state,
     * nonce and PKCE verifier, and returns the provider's URL to send the browser to. With
     * `linkUserId` (a signed-in user, from their Account page), the callback links the identity to
     * that user instead of signing anyone in.
     */
    async start(redirectUri: string, browserSecret: string, next = '/', linkUserId: number | null = null): Promise<URL> {
      const cfg = await provider();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      await store.identities.addLogin({
        state_hash: sha256(state),
        browser_hash: sha256(browserSecret),
        nonce,
        code_verifier: verifier,
        next_path: safePath(next),
        expires_at: new Date(now() + LOGIN_MS).toISOString(),
        link_user_id: linkUserId,
      });
      return client.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
    },

    /**
     * The provider sent the browser back to `redirectUri` with `query`: checks the request (state
     * known, unused, live and this browser's), exchanges the code (PKCE), has the library verify
     * the ID token and its nonce, and returns who signs in, or the link made for a link request
     * (which needs the browser still signed in as the user who asked: `sessionUserId`). Every
     * failure is an OidcRefusal.
     */
    async finish(redirectUri: string, query: URLSearchParams, browserSecret: string | undefined, sessionUserId?: number): Promise<OidcSignIn | OidcLink> {
      const state = query.get('state');
      if (!state || state.length > 512) throw new OidcRefusal('sso_expired', 'the sign-in request is missing its state; start again');
      // Taken (deleted) whatever happens next: a state works once.
      const login = await store.identities.takeLogin(sha256(state));
      if (!login || Date.parse(login.expires_at) <= now()) throw new OidcRefusal('sso_expired', 'this sign-in request is unknown, used already or expired; start again');
      const linkUserId = login.link_user_id ?? null;
      const link = linkUserId !== null;
      const a = Buffer.from(login.browser_hash);
      const b = Buffer.from(sha256(browserSecret ?? ''));
      if (!browserSecret || a.length !== b.length || !timingSafeEqual(a, b)) throw new OidcRefusal('sso_expired', 'this sign-in was started in another browser; start again here', link);
      if (link && sessionUserId !== linkUserId) throw new OidcRefusal('sso_expired', 'this browser is no longer signed in as the account that asked for the link; sign in and start again', link);
      if (query.has('error')) throw new OidcRefusal('sso_denied', `the identity provider refused the sign-in (${(query.get('error') ?? '').slice(0, 64)})`, link);
      let cfg: client.Configuration;
      try {
        cfg = await provider();
      } catch {
        throw new OidcRefusal('sso_unavailable', 'the identity provider cannot be reached; try again in a minute', link);
      }
      const current = new URL(redirectUri);
      current.search = query.toString();
      let claims: client.IDToken | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(cfg, current, { pkceCodeVerifier: login.code_verifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true });
        claims = tokens.claims();
      } catch {
        throw new OidcRefusal('sso_failed', "the identity provider's answer could not be verified; start again", link);
      }
      const subject = text(claims?.sub, MAX_CLAIM);
      if (!claims || !subject) throw new OidcRefusal('sso_failed', "the identity provider's answer names nobody", link);
      const issuer = cfg.serverMetadata().issuer;
      const email = text(claims.email, MAX_EMAIL)?.trim().toLowerCase();
      const verified = claims.email_verified === true || claims.email_verified === 'true';
      const identity = { issuer, subject, email: email ?? '' };
      const next = safePath(login.next_path);
      if (linkUserId !== null) return { kind: 'link', user: await linkTo(linkUserId, identity), next, identity };
      const { user, how } = await userFor(issuer, subject, email, verified, text(claims.preferred_username, MAX_CLAIM));
      if (user.disabled_at) throw new OidcRefusal('sso_disabled', 'this account is disabled; ask an admin');
      return { kind: 'sign-in', user, next, identity, how };
    },

    /** Unlinks one of the user's identities (it signs in nobody from then on, until linked again). */
    async unlink(actor: AuditActor & { userId: number }, id: number): Promise<void> {
      const row = (await store.identities.byUser(actor.userId)).find((i) => i.id === id);
      if (!row || !(await store.identities.unlink(actor.userId, id))) throw new NotFound(`no linked identity with id ${id}`);
      await audit.record({ kind: 'identity-unlinked', actor, subject: { id: actor.userId, username: actor.username }, detail: { issuer: row.issuer, email: row.email } });
    },

    /**
     * Holds a sign-in through the provider until the user gives zonedeck's second factor: returns
     * the value for the browser's cookie (its hash is stored, single use, 10 minutes).
     */
    async holdForSecondFactor(signIn: OidcSignIn): Promise<string> {
      const secret = newBrowserSecret();
      await store.identities.addPending({
        step_hash: sha256(secret),
        user_id: signIn.user.id,
        issuer: signIn.identity.issuer,
        email: signIn.identity.email,
        how: signIn.how,
        next_path: signIn.next,
        expires_at: new Date(now() + LOGIN_MS).toISOString(),
      });
      return secret;
    },

    /** The live sign-in held for a second factor under this cookie value, or undefined. */
    async held(secret: string | undefined): Promise<PendingSignInRow | undefined> {
      if (!secret || secret.length > 100) return undefined;
      const row = await store.identities.pending(sha256(secret));
      return row && Date.parse(row.expires_at) > now() ? row : undefined;
    },

    /** Takes the held sign-in (once: a second request with the same cookie gets undefined). */
    release: async (secret: string): Promise<PendingSignInRow | undefined> => store.identities.takePending(sha256(secret)),

    /** The identities linked to a user, for their Account page. */
    identities: (userId: number) => store.identities.byUser(userId),
  };
}

export type Oidc = ReturnType<typeof createOidc>;
