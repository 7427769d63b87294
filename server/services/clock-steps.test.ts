/**
 * Telling a step of the wall clock from time passing, and a dashboard session across one: a
 * forward step of an hour does not end a session used minutes before it, a session really idle
 * still ends, and a step back does not make an idle session live more than the step longer.
 */
import { afterEach, expect, it } from 'vitest';
import { serviceHarness, type ServiceHarness } from '../testing/service-harness';
import { watchClockSteps } from './clock-steps';
import { createSessions, DEFAULT_SESSION_TIMES } from './identity/sessions';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A wall clock and a monotonic one: `pass` moves both, `step` only the wall clock, as NTP does. */
function clocks() {
  const c = { wall: Date.UTC(2026, 10, 29, 12), mono: 1000 };
  return {
    steps: watchClockSteps(
      () => c.wall,
      () => c.mono,
    ),
    pass: (ms: number) => ((c.wall += ms), (c.mono += ms)),
    step: (ms: number) => (c.wall += ms),
  };
}

it('counts a forward step once, for moments before it only; not drift, a step back or a day-long jump', () => {
  const { steps, pass, step } = clocks();
  const before = steps.now();
  pass(10 * MINUTE);
  step(HOUR);
  const after = steps.now();
  expect(steps.forwardSince(before)).toBe(HOUR);
  expect(steps.forwardSince(after)).toBe(0);
  // Slewing by a second over an hour is drift.
  pass(HOUR);
  step(1000);
  expect(steps.forwardSince(after)).toBe(0);
  step(-HOUR);
  expect(steps.forwardSince(before)).toBe(HOUR);
  // A VM suspended for a day: its users really were away.
  const beforeSuspend = steps.now();
  step(24 * HOUR);
  expect(steps.forwardSince(beforeSuspend)).toBe(0);
});

let h: ServiceHarness;
afterEach(() => h?.close());

/** A user's new dashboard session on sessions that read `clocks()`. */
async function sessionOf(name: string) {
  h = await serviceHarness();
  const user = await h.user(name);
  const c = clocks();
  const sessions = createSessions(h.forge, h.services.accounts, DEFAULT_SESSION_TIMES, c.steps);
  return { ...c, sessions, secret: (await sessions.start(user)).secret };
}

it('keeps a session used ten minutes before a forward step of an hour, and ends it after an hour idle', async () => {
  const { sessions, secret, pass, step } = await sessionOf('alice');
  pass(10 * MINUTE);
  step(HOUR);
  expect(await sessions.resume(secret)).not.toBeNull();
  pass(DEFAULT_SESSION_TIMES.idleMs);
  expect(await sessions.resume(secret)).toBeNull();
});

it('after a step back, an idle session ends at most the step later than it would have', async () => {
  const { sessions, secret, pass, step } = await sessionOf('bob');
  step(-HOUR);
  pass(DEFAULT_SESSION_TIMES.idleMs + HOUR + MINUTE);
  expect(await sessions.resume(secret)).toBeNull();
});
