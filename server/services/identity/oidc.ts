/**
 * Single sign-on with OpenID Connect through openid-client: the authorization
 * code flow with PKCE (S256), state and nonce, all three kept server-side in a single-use row
 * that lives 10 minutes and is bound to the browser that started it (the hash of a random value
 * in its cookie). The library verifies the ID token (signature, issuer, audience, expiry, nonce).
 *
 * Who signs in, and how an identity is linked to an account, is oidc-accounts.ts. Disabled users
 * are refused like at every other door.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OidcConfig } from '../../config';
import { NotFound } from '../../core/errors';
import type { OidcLoginRow, PendingSignInRow, ServiceStore } from '../../store/types';
import type { Accounts } from './accounts';
import type { Audit, AuditActor } from './audit';
import { linkTo, userFor, type IdentityDeps, type OidcLink, type OidcSignIn } from './oidc-accounts';
import { OidcRefusal, OidcUnavailable } from './oidc-refusal';

export { OidcRefusal, OidcUnavailable, type OidcRefusalCode } from './oidc-refusal';
export { usernameFrom, type OidcLink, type OidcSignIn } from './oidc-accounts';

/** How long an authorization request may take, from the button to the callback. */
export const LOGIN_MS = 10 * 60_000;
const MAX_CLAIM = 255;
const MAX_EMAIL = 254;

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/** A value to bind a browser with, for its cookie. */
export const newBrowserSecret = () => randomBytes(32).toString('base64url');

/** A path of this site to return to (never another site's: `//evil.example`, `/\\evil`), or `/`. */
export function safePath(p: string | undefined | null): string {
  if (!p || p.length > 512 || !p.startsWith('/') || p.startsWith('//') || p.startsWith('/\\') || /[\u0000-\u001f\u007f\\]/.test(p)) return '/';
  return p;
}

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

export class Oidc {
  /** Whether single sign-on is configured (OIDC_ISSUER and its client). */
  readonly configured: boolean;
  /** The button's label (OIDC_NAME), or null when single sign-on is not configured. */
  readonly name: string | null;
  /** OIDC_SKIP_2FA: the provider's sign-in stands for zonedeck's second factor. */
  readonly skipsSecondFactor: boolean;
  readonly issuer: string | null;
  private readonly now: () => number;
  private readonly identityDeps: IdentityDeps;
  /** The provider's configuration once discovered (forgotten when discovery failed). */
  private discovered: Promise<client.Configuration> | undefined;

  constructor(
    private readonly store: ServiceStore,
    accounts: Accounts,
    private readonly audit: Audit,
    private readonly config: OidcConfig | undefined,
    private readonly opts: { fetch?: typeof fetch; now?: () => number } = {},
  ) {
    this.configured = config !== undefined;
    this.name = config ? config.name : null;
    this.skipsSecondFactor = config?.skipSecondFactor ?? false;
    this.issuer = config?.issuer ?? null;
    this.now = opts.now ?? Date.now;
    this.identityDeps = { store, accounts, audit, autoCreate: config?.autoCreate ?? false, now: this.now };
  }

  /** Discovers the provider now (at start), so the first sign-in need not wait; a failure is tried again later. */
  warmUp(): Promise<boolean> {
    return this.config
      ? this.provider().then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
  }

  /**
   * Starts an authorization request for the browser holding `browserSecret`: stores its state,
   * nonce and PKCE verifier, and returns the provider's URL to send the browser to. With
   * `linkUserId` (a signed-in user, from their Account page), the callback links the identity to
   * that user instead of signing anyone in.
   */
  async start(redirectUri: string, browserSecret: string, next = '/', linkUserId: number | null = null): Promise<URL> {
    const cfg = await this.provider();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    await this.store.identities.addLogin({
      state_hash: sha256(state),
      browser_hash: sha256(browserSecret),
      nonce,
      code_verifier: verifier,
      next_path: safePath(next),
      expires_at: new Date(this.now() + LOGIN_MS).toISOString(),
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
  }

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
    const login = await this.store.identities.takeLogin(sha256(state));
    if (!login || Date.parse(login.expires_at) <= this.now()) throw new OidcRefusal('sso_expired', 'this sign-in request is unknown, used already or expired; start again');
    const linkUserId = login.link_user_id ?? null;
    const link = linkUserId !== null;
    const a = Buffer.from(login.browser_hash);
    const b = Buffer.from(sha256(browserSecret ?? ''));
    if (!browserSecret || a.length !== b.length || !timingSafeEqual(a, b)) throw new OidcRefusal('sso_expired', 'this sign-in was started in another browser; start again here', link);
    if (link && sessionUserId !== linkUserId) throw new OidcRefusal('sso_expired', 'this browser is no longer signed in as the account that asked for the link; sign in and start again', link);
    if (query.has('error')) throw new OidcRefusal('sso_denied', `the identity provider refused the sign-in (${(query.get('error') ?? '').slice(0, 64)})`, link);
    const { issuer, claims } = await this.verified(redirectUri, query, state, login, link);
    const subject = text(claims?.sub, MAX_CLAIM);
    if (!claims || !subject) throw new OidcRefusal('sso_failed', "the identity provider's answer names nobody", link);
    const email = text(claims.email, MAX_EMAIL)?.trim().toLowerCase();
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    const identity = { issuer, subject, email: email ?? '' };
    const next = safePath(login.next_path);
    if (linkUserId !== null) return { kind: 'link', user: await linkTo(this.identityDeps, linkUserId, identity), next, identity };
    const { user, how } = await userFor(this.identityDeps, { issuer, subject, email, verified, preferred: text(claims.preferred_username, MAX_CLAIM) });
    if (user.disabled_at) throw new OidcRefusal('sso_disabled', 'this account is disabled; ask an admin');
    return { kind: 'sign-in', user, next, identity, how };
  }

  /** Unlinks one of the user's identities (it signs in nobody from then on, until linked again). */
  async unlink(actor: AuditActor & { userId: number }, id: number): Promise<void> {
    const row = (await this.store.identities.byUser(actor.userId)).find((i) => i.id === id);
    if (!row || !(await this.store.identities.unlink(actor.userId, id))) throw new NotFound(`no linked identity with id ${id}`);
    await this.audit.record({ kind: 'identity-unlinked', actor, subject: { id: actor.userId, username: actor.username }, detail: { issuer: row.issuer, email: row.email } });
  }

  /**
   * Holds a sign-in through the provider until the user gives zonedeck's second factor: returns
   * the value for the browser's cookie (its hash is stored, single use, 10 minutes).
   */
  async holdForSecondFactor(signIn: OidcSignIn): Promise<string> {
    const secret = newBrowserSecret();
    await this.store.identities.addPending({
      step_hash: sha256(secret),
      user_id: signIn.user.id,
      issuer: signIn.identity.issuer,
      email: signIn.identity.email,
      how: signIn.how,
      next_path: signIn.next,
      expires_at: new Date(this.now() + LOGIN_MS).toISOString(),
    });
    return secret;
  }

  /** The live sign-in held for a second factor under this cookie value, or undefined. */
  async held(secret: string | undefined): Promise<PendingSignInRow | undefined> {
    if (!secret || secret.length > 100) return undefined;
    const row = await this.store.identities.pending(sha256(secret));
    return row && Date.parse(row.expires_at) > this.now() ? row : undefined;
  }

  /** Takes the held sign-in (once: a second request with the same cookie gets undefined). */
  release(secret: string): Promise<PendingSignInRow | undefined> {
    return this.store.identities.takePending(sha256(secret));
  }

  /** The identities linked to a user, for their Account page. */
  identities(userId: number) {
    return this.store.identities.byUser(userId);
  }

  /** The provider's configuration, discovered once; a failure is forgotten, so the next sign-in tries again. */
  private provider(): Promise<client.Configuration> {
    const config = this.config;
    if (!config) throw new OidcUnavailable('single sign-on is not configured');
    this.discovered ??= client
      .discovery(new URL(config.issuer), config.clientId, undefined, client.ClientSecretBasic(config.clientSecret), {
        timeout: 10,
        ...(new URL(config.issuer).protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        ...(this.opts.fetch ? { [client.customFetch]: this.opts.fetch as unknown as client.CustomFetch } : {}),
      })
      .catch((e: unknown) => {
        this.discovered = undefined;
        throw new OidcUnavailable(`the OpenID provider ${config.issuer} cannot be reached: ${e instanceof Error ? e.message : String(e)}`);
      });
    return this.discovered;
  }

  /** The code exchanged (PKCE) and the ID token verified by the library, with its nonce: the issuer and the token's claims. */
  private async verified(redirectUri: string, query: URLSearchParams, state: string, login: OidcLoginRow, link: boolean): Promise<{ issuer: string; claims: client.IDToken | undefined }> {
    let cfg: client.Configuration;
    try {
      cfg = await this.provider();
    } catch {
      throw new OidcRefusal('sso_unavailable', 'the identity provider cannot be reached; try again in a minute', link);
    }
    const current = new URL(redirectUri);
    current.search = query.toString();
    try {
      const tokens = await client.authorizationCodeGrant(cfg, current, { pkceCodeVerifier: login.code_verifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true });
      return { issuer: cfg.serverMetadata().issuer, claims: tokens.claims() };
    } catch {
      throw new OidcRefusal('sso_failed', "the identity provider's answer could not be verified; start again", link);
    }
  }
}
