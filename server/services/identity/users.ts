/**
 * Users as an administrator manages them and as each user manages their own account:
 * creation with a one-time password, disabling, admin rights, password resets
 * and changes, and the dashboard sessions a user sees and ends. Each change goes into the audit
 * log with who made it; the API and the admin CLI both come here.
 */
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import type { Page, SessionRow, ServiceStore, UserRow, Window } from '../../store/types';
import type { Accounts } from './accounts';
import type { Audit, AuditActor } from './audit';
import type { FirstPassword } from './first-password';
import { hashPassword, verifyPassword } from './secrets';

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 1024;

export interface UserPatch {
  is_admin?: boolean;
  disabled?: boolean;
}

const subjectOf = (u: UserRow) => ({ id: u.id, username: u.username });

export class Users {
  constructor(
    private readonly store: ServiceStore,
    private readonly accounts: Accounts,
    private readonly audit: Audit,
    private readonly firstPassword?: FirstPassword,
  ) {}

  /** Ends the user's dashboard sessions (the row and its token), all but the one acting with `keepTokenId`; returns how many. */
  async endSessions(userId: number, keepTokenId?: number): Promise<number> {
    let ended = 0;
    for (const s of await this.store.sessions.byUser(userId)) {
      if (s.token_id === keepTokenId) continue;
      await this.endOne(s);
      ended++;
    }
    return ended;
  }

  /** Refuses anyone but an administrator. */
  requireAdmin(user: Pick<UserRow, 'is_admin'>): void {
    if (!user.is_admin) throw new Forbidden('only an administrator may manage users');
  }

  /** Users by name; `search`: a part of the name. */
  page(w: Window, search?: string): Promise<Page<UserRow>> {
    return this.store.users.page(w, search?.trim().toLowerCase() || undefined);
  }

  /**
   * A new user with a generated one-time password (or the one given, from the CLI); `mustChange`:
   * the dashboard asks them for a new one at their first sign-in.
   */
  async create(actor: AuditActor, username: string, opts: { isAdmin?: boolean; password?: string; mustChange?: boolean } = {}): Promise<{ user: UserRow; password: string }> {
    const created = await this.accounts.addUser(username, opts.password, { isAdmin: opts.isAdmin, mustChange: opts.mustChange });
    await this.audit.record({ kind: 'user-created', actor, subject: subjectOf(created.user), detail: { is_admin: created.user.is_admin } });
    return created;
  }

  /**
   * Grants or revokes admin rights, disables or enables; `actor.userId` may not disable themselves
   * or give up their own rights, so an install run from the dashboard always keeps an administrator.
   * Disabling ends the user's sessions; their tokens and TSIG keys stop working and work again once enabled.
   */
  async update(actor: AuditActor, username: string, patch: UserPatch): Promise<UserRow> {
    const user = await this.accounts.userByName(username);
    if (actor.userId === user.id && (patch.disabled === true || patch.is_admin === false)) {
      throw new Conflict('you cannot disable yourself or give up your own admin rights: another administrator must', {
        [patch.disabled === true ? 'disabled' : 'is_admin']: 'cannot be changed on your own account',
      });
    }
    const disable = patch.disabled !== undefined && patch.disabled !== Boolean(user.disabled_at);
    const admin = patch.is_admin !== undefined && patch.is_admin !== user.is_admin;
    if (!disable && !admin) return user;
    const disabledAt = disable ? (patch.disabled ? new Date().toISOString() : null) : user.disabled_at;
    const isAdmin = admin ? patch.is_admin! : user.is_admin;
    await this.store.transaction(async (tx) => {
      await tx.users.update(user.id, { ...(disable ? { disabled_at: disabledAt } : {}), ...(admin ? { is_admin: isAdmin } : {}) });
      if (disable) await this.audit.record({ kind: patch.disabled ? 'user-disabled' : 'user-enabled', actor, subject: subjectOf(user) }, tx);
      if (admin) await this.audit.record({ kind: isAdmin ? 'admin-granted' : 'admin-revoked', actor, subject: subjectOf(user) }, tx);
    });
    // Principals cached with the old row must not outlive the change.
    this.accounts.forgetUsers();
    if (disable && patch.disabled) await this.endSessions(user.id);
    return { ...user, disabled_at: disabledAt, is_admin: isAdmin };
  }

  /**
   * Sets (or, with null, clears) a user's email address: lower case; refused, naming `email`, when
   * another user has it. Single sign-on links by it never; a first sign-in with it is told to link.
   */
  async setEmail(actor: AuditActor, username: string, given: string | null): Promise<{ user: UserRow; email: string | null }> {
    const user = await this.accounts.userByName(username);
    const email = given === null ? null : given.trim().toLowerCase();
    if (email !== null) {
      const other = (await this.store.identities.usersByEmail(email)).find((u) => u.id !== user.id);
      if (other) throw new Invalid({ email: `is the address of ${other.username} already` });
    }
    await this.store.identities.setEmail(user.id, email);
    await this.audit.record({ kind: 'user-email-changed', actor, subject: subjectOf(user), detail: { email } });
    return { user, email };
  }

  /**
   * Sets a new password (generated unless given) and ends every dashboard session of the user,
   * whoever holds it: whoever knew the old password is out. Returns the password. `mustChange`: the
   * user chooses their own at the next sign-in (the admin CLI's reset, whose password the admin saw).
   */
  async resetPassword(actor: AuditActor, username: string, password?: string, mustChange = false): Promise<{ user: UserRow; password: string }> {
    const user = await this.accounts.userByName(username);
    const pw = await this.accounts.setPassword(user.id, password, mustChange);
    this.firstPassword?.forget(user.username);
    this.accounts.forgetUsers();
    const ended = await this.endSessions(user.id);
    await this.audit.record({ kind: 'password-reset', actor, subject: subjectOf(user), detail: { sessions_ended: ended } });
    return { user, password: pw };
  }

  /**
   * An administrator's reset after a lost phone or security key: every second factor of the user
   * goes (TOTP with its recovery codes, and every passkey, which signs in on its own), and so do
   * their dashboard sessions (one may be on the lost device). The audit log names what went.
   */
  async resetSecondFactors(actor: AuditActor, username: string): Promise<{ totp: boolean; passkeys: string[]; sessionsEnded: number }> {
    const user = await this.accounts.userByName(username);
    const { totp, passkeys } = await this.store.transaction(async (tx) => {
      const hadTotp = (await tx.secondFactors.totp(user.id)) !== undefined;
      if (hadTotp) await tx.secondFactors.remove(user.id);
      const keys = await tx.passkeys.byUser(user.id);
      for (const k of keys) await tx.passkeys.delete(user.id, k.id);
      return { totp: hadTotp, passkeys: keys.map((k) => k.name) };
    });
    const sessionsEnded = await this.endSessions(user.id);
    await this.audit.record({ kind: 'second-factor-reset', actor, subject: subjectOf(user), detail: { totp, passkeys, sessions_ended: sessionsEnded } });
    return { totp, passkeys, sessionsEnded };
  }

  /**
   * A user changes their own password, proving the current one; their other dashboard sessions
   * end, the credential making the change (`keepTokenId`) keeps working.
   */
  async changePassword(actor: AuditActor & { userId: number }, current: string, next: string, keepTokenId: number): Promise<void> {
    if (next.length < MIN_PASSWORD || next.length > MAX_PASSWORD) throw Invalid.field('new_password', `must be ${MIN_PASSWORD}–${MAX_PASSWORD} characters`);
    // Read again: a principal may carry a row read before the last change.
    const user = await this.store.users.byId(actor.userId);
    if (!user || !(await verifyPassword(current, user.password_hash))) throw Invalid.field('current_password', 'is not your current password');
    await this.store.users.setPassword(user.id, await hashPassword(next));
    this.firstPassword?.forget(user.username);
    this.accounts.forgetUsers();
    await this.audit.record({ kind: 'password-changed', actor, subject: subjectOf(user) });
    await this.endSessions(user.id, keepTokenId);
  }

  /** The user's live dashboard sessions, newest first. A user holds a handful, so the page is cut here. */
  async sessions(userId: number, w: Window, now = Date.now()): Promise<Page<SessionRow>> {
    const live = (await this.store.sessions.byUser(userId)).filter((s) => Date.parse(s.expires_at) > now);
    return { rows: live.slice(w.offset, w.offset + w.limit), total: live.length };
  }

  /** Ends one of the user's sessions (by its token's id); another user's or a missing one is NotFound alike. */
  async endSession(actor: AuditActor & { userId: number }, sessionId: number): Promise<void> {
    const session = (await this.store.sessions.byUser(actor.userId)).find((s) => s.token_id === sessionId);
    if (!session) throw new NotFound(`no session with id ${sessionId}`);
    await this.endOne(session);
    await this.audit.record({ kind: 'session-ended', actor, subject: { id: actor.userId, username: actor.username }, detail: { session_id: sessionId } });
  }

  private async endOne(s: SessionRow): Promise<void> {
    await this.store.sessions.delete(s.id_hash);
    // The token may be gone already (its session signed out meanwhile): the session is over either way.
    await this.accounts.revokeToken(s.token_id).catch((e: unknown) => {
      if (!(e instanceof NotFound)) throw e;
    });
  }
}
