/** Users as administrators and the users themselves manage them, without HTTP: rights, disabling, email, passwords, sessions. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import type { UserRow } from '../../store/types';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';
import type { AuditActor } from './audit';

let h: ServiceHarness;
let root: UserRow;
let alice: UserRow;
let byRoot: AuditActor;

async function refusal(p: Promise<unknown>): Promise<Error & { fields?: Record<string, string> }> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a refusal, got a success');
  return outcome;
}

/** A dashboard session of the user, as the BFF starts one. */
const session = (user: UserRow) => h.services.sessions().start(user);
const live = async (user: UserRow) => (await h.services.users.sessions(user.id, { offset: 0, limit: 10 })).total;
const kinds = async (viewer: UserRow) => (await h.services.audit.list(viewer, {}, { offset: 0, limit: 50 })).rows.map((e) => e.kind);

beforeEach(async () => {
  h = await serviceHarness();
  root = await h.user('root', true);
  alice = (await h.services.users.create({ userId: root.id, username: 'root', credential: 'cli' }, 'alice', { password: 'first password' })).user;
  byRoot = { userId: root.id, username: 'root', credential: 'session' };
});
afterEach(async () => {
  await h.close();
});

describe('what an administrator does', () => {
  it('refuses anyone else', () => {
    expect(() => h.services.users.requireAdmin(alice)).toThrow(Forbidden);
    expect(() => h.services.users.requireAdmin(root)).not.toThrow();
  });

  it('disables a user, which ends their sessions and stops their tokens, and enables them again', async () => {
    const { token } = await h.services.accounts.createToken(alice.id, 'ci');
    await session(alice);
    expect(await live(alice)).toBe(1);
    const disabled = await h.services.users.update(byRoot, 'alice', { disabled: true });
    expect(disabled.disabled_at).not.toBeNull();
    expect(await live(alice)).toBe(0);
    expect(await h.services.accounts.authenticate(token)).toBeNull();
    await h.services.users.update(byRoot, 'alice', { disabled: false });
    expect(await h.services.accounts.authenticate(token)).not.toBeNull();
    expect(await kinds(root)).toEqual(expect.arrayContaining(['user-created', 'user-disabled', 'user-enabled']));
  });

  it('grants and revokes admin rights, but never to or from oneself', async () => {
    expect((await h.services.users.update(byRoot, 'alice', { is_admin: true })).is_admin).toBe(true);
    const self = await refusal(h.services.users.update(byRoot, 'root', { is_admin: false }));
    expect(self).toBeInstanceOf(Conflict);
    expect(self.fields).toEqual({ is_admin: 'cannot be changed on your own account' });
    expect((await refusal(h.services.users.update(byRoot, 'root', { disabled: true }))).fields).toEqual({ disabled: 'cannot be changed on your own account' });
    expect((await h.forge.users.byId(root.id))!.is_admin).toBe(true);
    expect(await refusal(h.services.users.update(byRoot, 'nobody', { disabled: true }))).toBeInstanceOf(NotFound);
  });

  it("sets an email address in lower case, one user's alone", async () => {
    expect((await h.services.users.setEmail(byRoot, 'alice', ' Alice@Example.TEST ')).email).toBe('alice@example.test');
    const taken = await refusal(h.services.users.setEmail(byRoot, 'root', 'ALICE@example.test'));
    expect(taken).toBeInstanceOf(Invalid);
    expect(taken.fields).toEqual({ email: 'is the address of alice already' });
    expect((await h.services.users.setEmail(byRoot, 'alice', null)).email).toBeNull();
    expect((await h.services.users.setEmail(byRoot, 'root', 'alice@example.test')).email).toBe('alice@example.test');
  });

  it('resets a password: the new one signs in, the old one no longer, and every session ends', async () => {
    await session(alice);
    const { password } = await h.services.users.resetPassword(byRoot, 'alice');
    expect(await h.services.accounts.checkPassword('alice', 'first password')).toBeNull();
    expect((await h.services.accounts.checkPassword('alice', password))?.id).toBe(alice.id);
    expect(await live(alice)).toBe(0);
  });

  it('resets second factors, ending the sessions, and says what went', async () => {
    await session(alice);
    expect(await h.services.users.resetSecondFactors(byRoot, 'alice')).toEqual({ totp: false, passkeys: [], sessionsEnded: 1 });
    expect(await kinds(root)).toContain('second-factor-reset');
  });
});

describe('what a user does with their own account', () => {
  const me = () => ({ userId: alice.id, username: 'alice', credential: 'session' });

  it('changes their password with the current one; their other sessions end, the one acting stays', async () => {
    const mine = await session(alice);
    await session(alice);
    expect(await live(alice)).toBe(2);
    expect((await refusal(h.services.users.changePassword(me(), 'wrong', 'new password!', mine.row.token_id))).fields).toEqual({ current_password: 'is not your current password' });
    expect(Object.keys((await refusal(h.services.users.changePassword(me(), 'first password', 'short', mine.row.token_id))).fields!)).toEqual(['new_password']);
    await h.services.users.changePassword(me(), 'first password', 'new password!', mine.row.token_id);
    expect((await h.services.accounts.checkPassword('alice', 'new password!'))?.id).toBe(alice.id);
    const left = await h.services.users.sessions(alice.id, { offset: 0, limit: 10 });
    expect(left.rows.map((s) => s.token_id)).toEqual([mine.row.token_id]);
  });

  it("ends one of their sessions; another user's is a missing one", async () => {
    const mine = await session(alice);
    const roots = await session(root);
    expect(await refusal(h.services.users.endSession(me(), roots.row.token_id))).toBeInstanceOf(NotFound);
    expect(await live(root)).toBe(1);
    await h.services.users.endSession(me(), mine.row.token_id);
    expect(await live(alice)).toBe(0);
  });
});
