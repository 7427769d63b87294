/**
 * Whose account a provider's identity (issuer, subject) signs in to: the user it is linked to;
 * else, with OIDC_AUTO_CREATE, a new user. An identity is never linked to an existing account by
 * a matching email address (a provider whose users may set their own address, or one taken over,
 * would hand out accounts, an administrator's among them): the account's owner links it, signed
 * in, from their Account page.
 */
import { randomBytes } from 'node:crypto';
import { Conflict } from '../../core/errors';
import type { IdentityRow, ServiceStore, UserRow } from '../../store/types';
import type { Accounts } from './accounts';
import type { Audit } from './audit';
import { OidcRefusal } from './oidc-refusal';

export type LinkedIdentity = Pick<IdentityRow, 'issuer' | 'subject' | 'email'>;

export interface OidcSignIn {
  kind: 'sign-in';
  user: UserRow;
  /** The dashboard page the sign-in was started from, to land on. */
  next: string;
  identity: LinkedIdentity;
  /** How the identity came to this user this time: it was linked before, or its user was made now. */
  how: 'linked' | 'created';
}

/** A signed-in user linked the provider's identity to their account (from the Account page). */
export interface OidcLink {
  kind: 'link';
  user: UserRow;
  next: string;
  identity: LinkedIdentity;
}

export interface IdentityDeps {
  store: ServiceStore;
  accounts: Accounts;
  audit: Audit;
  /** OIDC_AUTO_CREATE: a user is made for an identity nobody has linked. */
  autoCreate: boolean;
  now: () => number;
}

/** What the provider says of the one signing in. */
export interface Claims {
  issuer: string;
  subject: string;
  email: string | undefined;
  /** The provider vouches for the address. */
  verified: boolean;
  /** `preferred_username`, for the name of a user made for the identity. */
  preferred: string | undefined;
}

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

/** The user an identity signs in as (the one it is linked to, or one made for it as the rules say), or a refusal. */
export async function userFor(deps: IdentityDeps, c: Claims): Promise<{ user: UserRow; how: OidcSignIn['how'] }> {
  const { store } = deps;
  const at = new Date(deps.now()).toISOString();
  const known = await store.identities.byIssuerSubject(c.issuer, c.subject);
  if (known) {
    const user = await store.users.byId(known.user_id);
    if (!user) throw new OidcRefusal('sso_no_account', 'no account for this identity; ask an admin');
    await store.identities.used(known.id, c.email ?? '', at);
    return { user, how: 'linked' };
  }
  // An account with this address exists: its owner links the identity, signed in; no second account is made for it.
  if (c.email && c.verified && (await store.identities.usersByEmail(c.email)).length > 0) {
    throw new OidcRefusal('sso_not_linked', 'this identity is not linked to an account yet: sign in another way, then link it on your Account page');
  }
  if (!deps.autoCreate) throw new OidcRefusal('sso_no_account', 'no account for this identity; ask an admin');
  return createFor(deps, c, at);
}

/** A new user for an identity (OIDC_AUTO_CREATE), named after it, with the identity linked. */
async function createFor(deps: IdentityDeps, c: Claims, at: string): Promise<{ user: UserRow; how: OidcSignIn['how'] }> {
  const { store } = deps;
  const base = usernameFrom(c.preferred ?? c.email?.split('@')[0] ?? 'user');
  for (let n = 1; n <= 50; n++) {
    const suffix = n === 1 ? '' : `-${n <= 20 ? n : randomBytes(3).toString('hex')}`;
    const name = `${base.slice(0, 64 - suffix.length).replace(/[._-]+$/, '')}${suffix}`;
    if (await store.users.byUsername(name)) continue;
    let user: UserRow;
    try {
      // A random password nobody is told: this user signs in through the provider (or a password an admin sets later).
      ({ user } = await deps.accounts.addUser(name));
    } catch (e) {
      if (e instanceof Conflict) continue; // taken meanwhile
      throw e;
    }
    if (c.email && c.verified) await store.identities.setEmail(user.id, c.email);
    if (!(await store.identities.insert({ issuer: c.issuer, subject: c.subject, user_id: user.id, email: c.email ?? '', created_at: at, last_used_at: at }))) {
      // The same identity's first sign-in raced this one and won: sign in as its user.
      const winner = await store.identities.byIssuerSubject(c.issuer, c.subject);
      const other = winner && (await store.users.byId(winner.user_id));
      if (other) return { user: other, how: 'linked' };
    }
    const detail = { is_admin: false, via: 'oidc', issuer: c.issuer, ...(c.email ? { email: c.email } : {}) };
    await deps.audit.record({ kind: 'user-created', actor: { username: '', credential: 'oidc' }, subject: { id: user.id, username: user.username }, detail });
    return { user, how: 'created' };
  }
  throw new OidcRefusal('sso_no_account', 'no free username for this identity; ask an admin to create the account');
}

/** Links an identity to the signed-in user who asked (from their Account page); refused when it is another user's already. */
export async function linkTo(deps: Omit<IdentityDeps, 'accounts' | 'autoCreate'>, userId: number, identity: LinkedIdentity): Promise<UserRow> {
  const { store } = deps;
  const user = await store.users.byId(userId);
  if (!user || user.disabled_at) throw new OidcRefusal('sso_disabled', 'this account is disabled; ask an admin', true);
  const at = new Date(deps.now()).toISOString();
  const inserted = await store.identities.insert({ ...identity, user_id: user.id, created_at: at, last_used_at: null });
  if (!inserted) {
    const known = await store.identities.byIssuerSubject(identity.issuer, identity.subject);
    if (known?.user_id !== user.id) throw new OidcRefusal('sso_taken', 'this identity signs in to another account already: unlink it there first', true);
    return user;
  }
  await deps.audit.record({
    kind: 'identity-linked',
    actor: { userId: user.id, username: user.username, credential: 'session' },
    subject: { id: user.id, username: user.username },
    detail: { issuer: identity.issuer, email: identity.email, by: 'account page' },
  });
  return user;
}
