/**
 * Single sign-on with OpenID Connect (DESIGN.md §20) through openid-client: the authorization
 * code flow with PKCE (S256), state and nonce, all three kept server-side in a single-use row
 * that lives 10 minutes and is bound to the browser that started it (the hash of a random value
 * in its cookie). The library verifies the ID token (signature, issuer, audience, expiry, nonce).
 *
 * Who signs in: the user the identity (issuer, subject) is linked to; else the user whose email
 * the provider vouches for (`email_verified`), linked from then on; else, with OIDC_AUTO_CREATE,
 * a new user. Disabled users are refused like at every other door.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OidcConfig } from '../config';
import { Conflict } from '../core/errors';
import type { IdentityRow, ServiceStore, UserRow } from '../store/types';
import type { Accounts } from './accounts';
import type { Audit } from './audit';

/** How long an authorization request may take, from the button to the callback. */
export const LOGIN_MS = 10 * 60_000;
const MAX_CLAIM = 255;
const MAX_EMAIL = 254;

/** Why a callback is refused; `code` goes to the sign-in page (`/sign-in?error=<code>`), which words it. */
export type OidcRefusalCode = 'sso_expired' | 'sso_failed' | 'sso_denied' | 'sso_no_account' | 'sso_disabled' | 'sso_unavailable';

export class OidcRefusal extends Error {
  constructor(
    readonly code: OidcRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

/** The provider cannot be reached (discovery failed): the button answers 503 and discovery is tried again next time. */
export class OidcUnavailable extends Error {}

export interface OidcSignIn {
  user: UserRow;
  /** The dashboard page the sign-in was started from, to land on. */
  next: string;
  identity: Pick<IdentityRow, 'issuer' | 'subject' | 'email'>;
  /** How the identity came to this user this time: it was linked before, linked now by its email, or its user was made now. */
  how: 'linked' | 'email' | 'created';
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

  /** The user an identity signs in as (linking or creating one as the rules say), or a refusal. */
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
    if (email && verified) {
      const matches = await store.identities.usersByEmail(email);
      // Two users with one address: which one is meant is for an administrator to say.
      if (matches.length === 1) {
        const user = matches[0]!;
        if (user.disabled_at) throw new OidcRefusal('sso_disabled', 'this account is disabled; ask an admin');
        if (await store.identities.insert({ issuer, subject, user_id: user.id, email, created_at: at, last_used_at: at })) {
          await audit.record({ kind: 'identity-linked', actor: { ...actor, userId: user.id, username: user.username }, subject: { id: user.id, username: user.username }, detail: { issuer, email, by: 'verified email' } });
        }
        return { user, how: 'email' };
      }
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

  return {
    /** Whether single sign-on is configured (OIDC_ISSUER and its client). */
    configured: config !== undefined,
    /** The button's label (OIDC_NAME), or null when single sign-on is not configured. */
    name: config ? config.name : null,
    issuer: config?.issuer ?? null,

    /** Discovers the provider now (at start), so the first sign-in need not wait; a failure is tried again later. */
    warmUp: () => (config ? provider().then(() => true, () => false) : Promise.resolve(false)),

    /**
     * Starts an authorization request for the browser holding `browserSecret`: stores its state,
     * nonce and PKCE verifier, and returns the provider's URL to send the browser to.
     */
    async start(redirectUri: string, browserSecret: string, next = '/'): Promise<URL> {
      const cfg = await provider();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      await store.identities.addLogin({ state_hash: sha256(state), browser_hash: sha256(browserSecret), nonce, code_verifier: verifier, next_path: safePath(next), expires_at: new Date(now() + LOGIN_MS).toISOString() });
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
     * the ID token and its nonce, and returns who signs in. Every failure is an OidcRefusal.
     */
    async finish(redirectUri: string, query: URLSearchParams, browserSecret: string | undefined): Promise<OidcSignIn> {
      const state = query.get('state');
      if (!state || state.length > 512) throw new OidcRefusal('sso_expired', 'the sign-in request is missing its state; start again');
      // Taken (deleted) whatever happens next: a state works once.
      const login = await store.identities.takeLogin(sha256(state));
      if (!login || Date.parse(login.expires_at) <= now()) throw new OidcRefusal('sso_expired', 'this sign-in request is unknown, used already or expired; start again');
      const a = Buffer.from(login.browser_hash);
      const b = Buffer.from(sha256(browserSecret ?? ''));
      if (!browserSecret || a.length !== b.length || !timingSafeEqual(a, b)) throw new OidcRefusal('sso_expired', 'this sign-in was started in another browser; start again here');
      if (query.has('error')) throw new OidcRefusal('sso_denied', `the identity provider refused the sign-in (${(query.get('error') ?? '').slice(0, 64)})`);
      let cfg: client.Configuration;
      try {
        cfg = await provider();
      } catch {
        throw new OidcRefusal('sso_unavailable', 'the identity provider cannot be reached; try again in a minute');
      }
      const current = new URL(redirectUri);
      current.search = query.toString();
      let claims: client.IDToken | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(cfg, current, { pkceCodeVerifier: login.code_verifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true });
        claims = tokens.claims();
      } catch {
        throw new OidcRefusal('sso_failed', "the identity provider's answer could not be verified; start again");
      }
      const subject = text(claims?.sub, MAX_CLAIM);
      if (!claims || !subject) throw new OidcRefusal('sso_failed', "the identity provider's answer names nobody");
      const issuer = cfg.serverMetadata().issuer;
      const email = text(claims.email, MAX_EMAIL)?.trim().toLowerCase();
      const verified = claims.email_verified === true || claims.email_verified === 'true';
      const preferred = text(claims.preferred_username, MAX_CLAIM);
      const { user, how } = await userFor(issuer, subject, email, verified, preferred);
      if (user.disabled_at) throw new OidcRefusal('sso_disabled', 'this account is disabled; ask an admin');
      return { user, next: safePath(login.next_path), identity: { issuer, subject, email: email ?? '' }, how };
    },

    /** The identities linked to a user, for their Account page. */
    identities: (userId: number) => store.identities.byUser(userId),
  };
}

export type Oidc = ReturnType<typeof createOidc>;
