/** Users and their API tokens: creation, sign-in, token minting, authentication, revocation. */
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import { normalizeScope, type Scope, type ScopeInput } from '../../core/scope';
import { LABEL_CONTROL_CHARS, MAX_TOKEN_LABEL } from '../../core/token-rules';
import type { Page, ServiceStore, TokenRow, UserRow, Window } from '../../store/types';
import { ReadCache } from '../changes/read-cache';
import { FieldCheck } from '../changes/rule-fields';
import { DUMMY_HASH, hashPassword, hashToken, newPassword, newToken, sameDigest, verifyPassword } from './secrets';

const USERNAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** last_used_at is written at most this often per token, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export interface Principal {
  user: UserRow;
  token: TokenRow;
  /**
   * What this credential may do; `{}` is unrestricted. Enforce it with
   * `allows(principal.scope, {zone, name, type, write: true})` from core/scope.ts.
   */
  scope: Scope;
}

export class Accounts {
  /** When each token's last_used_at was last written, by token id. */
  private readonly touched = new Map<number, number>();
  /** Tokens with their users by hash: the lookup every API request makes. */
  private readonly tokens: ReadCache<{ token: TokenRow; user: UserRow } | null>;

  constructor(
    private readonly store: ServiceStore,
    /** MAX_TOKENS_PER_USER; absent: no limit. */
    private readonly maxTokensPerUser?: number,
  ) {
    this.tokens = new ReadCache(store);
  }

  async userByName(username: string): Promise<UserRow> {
    const user = await this.store.users.byUsername(username.toLowerCase());
    if (!user) throw new NotFound(`no user named ${username}`);
    return user;
  }

  /** Creates a user (an administrator with `isAdmin`); returns the password (generated when none is given). */
  /** `mustChange`: the password is shown to someone else (the first start, the admin CLI), so the user chooses their own at first sign-in. */
  async addUser(username: string, password?: string, opts: { isAdmin?: boolean; mustChange?: boolean } = {}): Promise<{ user: UserRow; password: string }> {
    const name = username.trim().toLowerCase();
    if (!USERNAME.test(name)) {
      throw Invalid.field('username', 'must be 1–64 letters, digits, dots, hyphens or underscores, starting with a letter or digit');
    }
    if (password !== undefined && password.length < 8) throw Invalid.field('password', 'must be at least 8 characters');
    const pw = password ?? newPassword();
    const hash = await hashPassword(pw);
    return this.store.transaction(async (tx) => {
      if (await tx.users.byUsername(name)) throw new Conflict(`user ${name} already exists`, { username: 'is already taken' });
      const user = await tx.users.insert({
        username: name,
        password_hash: hash,
        created_at: new Date().toISOString(),
        is_admin: opts.isAdmin ?? false,
        must_change_password: opts.mustChange ?? false,
      });
      return { user, password: pw };
    });
  }

  /** Sets a user's password (generated when none is given) and returns it; `mustChange`: the user is asked for their own at the next sign-in. */
  async setPassword(userId: number, password?: string, mustChange = false): Promise<string> {
    if (password !== undefined && password.length < 8) throw Invalid.field('password', 'must be at least 8 characters');
    const pw = password ?? newPassword();
    await this.store.users.setPassword(userId, await hashPassword(pw), mustChange);
    return pw;
  }

  /**
   * The user whose password this is, or null; takes the same time whether or not the user exists.
   * A disabled user is null too: their sign-in fails exactly as a wrong password does.
   */
  async checkPassword(username: string, password: string): Promise<UserRow | null> {
    const user = await this.store.users.byUsername(username.trim().toLowerCase());
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    return ok && user && !user.disabled_at ? user : null;
  }

  /**
   * Mints an API token; `scope` limits what it may do (absent: unrestricted). `session` for the
   * dashboard's session tokens, which MAX_TOKENS_PER_USER does not count (a user at the limit can
   * still sign in).
   */
  async createToken(userId: number, label = '', expiresAt: string | null = null, scopeInput?: ScopeInput, session = false): Promise<{ row: TokenRow; token: string }> {
    if (label.length > MAX_TOKEN_LABEL) throw Invalid.field('label', `must be at most ${MAX_TOKEN_LABEL} characters`);
    if (LABEL_CONTROL_CHARS.test(label)) throw Invalid.field('label', 'must not contain control characters');
    const check = new FieldCheck();
    const scope = normalizeScope(scopeInput, (field, rule) => check.run(field, rule));
    check.done();
    const token = newToken();
    const values = { user_id: userId, label, token_hash: hashToken(token), created_at: new Date().toISOString(), last_used_at: null, expires_at: expiresAt, scope };
    const max = this.maxTokensPerUser;
    if (session || max === undefined) return { row: await this.store.tokens.insert(values), token };
    const row = await this.store.transaction(async (tx) => {
      await tx.quotas.lock('tokens', userId);
      if ((await tx.quotas.count('tokens', userId)) >= max) {
        throw new Forbidden(`this account already holds ${max} API tokens; ${max} is the most one user may have (MAX_TOKENS_PER_USER): revoke one first`);
      }
      return tx.tokens.insert(values);
    });
    return { row, token };
  }

  /** The user and token a presented secret belongs to, or null when unknown, revoked or expired. */
  async authenticate(secret: string): Promise<Principal | null> {
    const hash = hashToken(secret);
    // The stored hash is compared once, when the row is loaded; the cache holds only rows that matched.
    const found = await this.tokens.get(hash, async () => {
      const row = await this.store.tokens.withUser(hash);
      return row && sameDigest(row.token.token_hash, hash) ? row : null;
    });
    if (!found) return null;
    const { token, user } = found;
    // No token of a disabled user works, on any path (v1, PowerDNS, the dashboard's session).
    if (user.disabled_at) return null;
    const now = Date.now();
    if (token.expires_at && Date.parse(token.expires_at) <= now) return null;
    if (now - (this.touched.get(token.id) ?? 0) > TOUCH_INTERVAL_MS) {
      this.touched.set(token.id, now);
      await this.store.tokens.touch(token.id, new Date(now).toISOString());
    }
    return { user, token, scope: token.scope };
  }

  /** Forgets the tokens' users read so far: after a user is disabled or enabled, the next request reads the change. */
  forgetUsers(): void {
    this.tokens.invalidate();
  }

  listTokens(userId: number) {
    return this.store.tokens.listByUser(userId);
  }

  /** One page of a user's tokens, oldest first. A user holds a handful, so the page is cut here, not in SQL. */
  pageTokens(userId: number, w: Window, opts?: { apiOnly?: boolean; newestFirst?: boolean }): Promise<Page<TokenRow>> {
    return this.store.tokens.page(userId, w, opts);
  }

  async revokeToken(id: number): Promise<void> {
    const deleted = await this.store.tokens.delete(id);
    // After the delete: a lookup that raced with it cannot leave the token cached.
    this.tokens.invalidate();
    if (!deleted) throw new NotFound(`no token with id ${id}`);
    this.touched.delete(id);
  }

  /** Revokes one of the user's own tokens and returns it; another user's token is NotFound, exactly as a missing one. */
  async revokeOwnToken(userId: number, id: number): Promise<TokenRow> {
    const row = await this.store.tokens.byId(id);
    const deleted = row !== undefined && row.user_id === userId && (await this.store.tokens.delete(id));
    this.tokens.invalidate();
    if (!row || !deleted) throw new NotFound(`no token with id ${id}`);
    this.touched.delete(id);
    return row;
  }
}
