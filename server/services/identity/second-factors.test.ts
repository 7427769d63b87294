/**
 * TOTP when the server's clock steps: after a step back of an hour the code the user's app shows
 * works at once (not an hour later), each code works once, and a code used before the step is
 * still refused when the clock comes round to its step again.
 */
import { Secret, TOTP } from 'otpauth';
import { afterEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAudit } from './audit';
import { createSecondFactors } from './second-factors';

let t: TestApp;
afterEach(() => t?.close());

const HOUR = 3_600_000;

/** A user and the second factors of a server whose clock the test sets. */
async function withUser(name: string) {
  t = await createTestApp();
  await t.user(name);
  const user = (await t.forge.users.byUsername(name))!;
  const clock = { now: Date.UTC(2026, 10, 29, 12, 0, 10) };
  const factors = createSecondFactors(t.forge, createAudit(t.forge), () => clock.now);
  return { user, clock, factors, actor: { userId: user.id, username: name, credential: 'test' } };
}

it('accepts the current code after the clock steps back an hour, and never the same code twice', async () => {
  const { user: alice, clock, factors, actor } = await withUser('alice');

  const { secret } = await factors.startTotp(alice);
  const app = new TOTP({ secret: Secret.fromBase32(secret) });
  /** What the app shows at `ms`: its own clock is right, whatever the server's does. */
  const codeAt = (ms: number) => app.generate({ timestamp: ms });
  await factors.confirmTotp(actor, codeAt(clock.now));

  clock.now += 60_000;
  const beforeStep = codeAt(clock.now);
  expect(await factors.verify(alice.id, beforeStep)).toBe('totp');
  expect(await factors.verify(alice.id, beforeStep)).toBeNull();

  // The clock was an hour fast; NTP steps it back. The app's code is for a step an hour before the last one used.
  const stepped = clock.now - HOUR;
  clock.now = stepped;
  const afterStep = codeAt(clock.now);
  expect(await factors.verify(alice.id, afterStep)).toBe('totp');
  expect(await factors.verify(alice.id, afterStep)).toBeNull();

  // An hour later the clock is back at the step of the code used before it: that code stays used.
  clock.now = stepped + HOUR;
  expect(await factors.verify(alice.id, beforeStep)).toBeNull();
  expect(await factors.verify(alice.id, codeAt(clock.now + 30_000))).toBe('totp');
});

it('forgets the used steps of a factor that is removed: the new secret signs in at once', async () => {
  const { user: bob, clock, factors, actor } = await withUser('bob');
  const enrol = async (confirmAt: number) => {
    const app = new TOTP({ secret: Secret.fromBase32((await factors.startTotp(bob)).secret) });
    await factors.confirmTotp(actor, app.generate({ timestamp: confirmAt }));
    return app;
  };
  const first = await enrol(clock.now);
  clock.now += 30_000;
  expect(await factors.verify(bob.id, first.generate({ timestamp: clock.now }))).toBe('totp');
  await factors.removeTotp(actor, bob);
  // Confirmed with the previous step's code (the window allows it), so the current step is free for the new app.
  const second = await enrol(clock.now - 30_000);
  // The step the first app's code was used for, under another secret: not a replay.
  expect(await factors.verify(bob.id, second.generate({ timestamp: clock.now }))).toBe('totp');
});
