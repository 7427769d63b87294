/** Users' accounts and API tokens without HTTP: creation, passwords, tokens, their scope, quota, expiry and revocation. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import { serviceHarness, type ServiceHarness } from '../../testing/service-harness';

let h: ServiceHarness;

async function refusal(p: Promise<unknown>): Promise<Error & { fields?: Record<string, string> }> {
  const outcome = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a refusal, got a success');
  return outcome;
}

beforeEach(async () => {
  h = await serviceHarness({ MAX_TOKENS_PER_USER: '2' });
});
afterEach(async () => {
  await h.close();
});

describe('users and passwords', () => {
  it('creates a user under a lower-case name, with a generated password that signs in', async () => {
    const { user, password } = await h.services.accounts.addUser(' Alice ');
    expect(user.username).toBe('alice');
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect((await h.services.accounts.checkPassword('ALICE', password))?.id).toBe(user.id);
    expect(await h.services.accounts.checkPassword('alice', `${password}x`)).toBeNull();
    expect(await h.services.accounts.checkPassword('nobody', password)).toBeNull();
  });

  it('refuses a bad or taken username and a short password', async () => {
    await h.services.accounts.addUser('alice', 'long enough');
    expect((await refusal(h.services.accounts.addUser('alice'))).fields).toEqual({ username: 'is already taken' });
    expect(await refusal(h.services.accounts.addUser('Alice'))).toBeInstanceOf(Conflict);
    expect(Object.keys((await refusal(h.services.accounts.addUser('-alice'))).fields!)).toEqual(['username']);
    expect(Object.keys((await refusal(h.services.accounts.addUser('bob', 'short'))).fields!)).toEqual(['password']);
  });

  it('refuses the password of a disabled user exactly like a wrong one', async () => {
    const { user } = await h.services.accounts.addUser('alice', 'long enough');
    await h.forge.users.update(user.id, { disabled_at: new Date().toISOString() });
    expect(await h.services.accounts.checkPassword('alice', 'long enough')).toBeNull();
  });
});

describe('API tokens', () => {
  it('authenticates a token until it is revoked, and never a disabled user', async () => {
    const alice = await h.user('alice');
    const { row, token } = await h.services.accounts.createToken(alice.id, 'ci');
    const principal = await h.services.accounts.authenticate(token);
    expect(principal).toMatchObject({ user: { id: alice.id }, token: { id: row.id, label: 'ci' }, scope: {} });
    expect(await h.services.accounts.authenticate(`${token}x`)).toBeNull();

    await h.forge.users.update(alice.id, { disabled_at: new Date().toISOString() });
    h.services.accounts.forgetUsers();
    expect(await h.services.accounts.authenticate(token)).toBeNull();
    await h.forge.users.update(alice.id, { disabled_at: null });
    h.services.accounts.forgetUsers();
    expect(await h.services.accounts.authenticate(token)).not.toBeNull();

    await h.services.accounts.revokeToken(row.id);
    expect(await h.services.accounts.authenticate(token)).toBeNull();
    expect(await refusal(h.services.accounts.revokeToken(row.id))).toBeInstanceOf(NotFound);
  });

  it('refuses an expired token', async () => {
    const alice = await h.user('alice');
    const { token } = await h.services.accounts.createToken(alice.id, 'old', new Date(Date.now() - 1000).toISOString());
    expect(await h.services.accounts.authenticate(token)).toBeNull();
  });

  it('keeps the scope it was given, normalized, and refuses a bad one naming its field', async () => {
    const alice = await h.user('alice');
    const { token } = await h.services.accounts.createToken(alice.id, 'acme', null, { zones: ['Example.TEST.'], types: ['txt'], names: ['_acme-challenge'] });
    expect((await h.services.accounts.authenticate(token))!.scope).toEqual({ zones: ['example.test'], types: ['TXT'], names: ['_acme-challenge'] });
    const bad = await refusal(h.services.accounts.createToken(alice.id, 'x', null, { types: ['BOGUS'] }));
    expect(bad).toBeInstanceOf(Invalid);
    expect(Object.keys(bad.fields!)).toEqual(['scope.types.0']);
    expect(Object.keys((await refusal(h.services.accounts.createToken(alice.id, 'a\u0000b'))).fields!)).toEqual(['label']);
  });

  it('holds a user to MAX_TOKENS_PER_USER API tokens; sessions are not counted', async () => {
    const alice = await h.user('alice');
    await h.services.accounts.createToken(alice.id, 'one');
    await h.services.accounts.createToken(alice.id, 'two');
    const e = await refusal(h.services.accounts.createToken(alice.id, 'three'));
    expect(e).toBeInstanceOf(Forbidden);
    expect(e.message).toMatch(/MAX_TOKENS_PER_USER/);
    expect((await h.services.accounts.createToken(alice.id, 'dashboard', null, undefined, true)).token).toBeTruthy();
  });

  it("revokes a user's own token only: another's is a missing one", async () => {
    const alice = await h.user('alice');
    const bob = await h.user('bob');
    const { row, token } = await h.services.accounts.createToken(alice.id, 'ci');
    expect(await refusal(h.services.accounts.revokeOwnToken(bob.id, row.id))).toBeInstanceOf(NotFound);
    expect(await h.services.accounts.authenticate(token)).not.toBeNull();
    expect((await h.services.accounts.revokeOwnToken(alice.id, row.id)).label).toBe('ci');
    expect(await h.services.accounts.authenticate(token)).toBeNull();
  });
});
