/**
 * The event loop's lateness: one long task is not overload, a loop that stays behind is, and it is
 * on time again as soon as a sample is; then the real sampler over a loop kept busy on purpose.
 */
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../testing/wait-until';
import { LoopLateness, watchLoopDelay } from './loop-delay';

describe('the judgement', () => {
  it('is late only after samples in a row over the threshold, and on time at the first under it', () => {
    const judge = new LoopLateness(200);
    judge.observe(900);
    expect(judge.late).toBe(false);
    judge.observe(5);
    judge.observe(250);
    expect(judge.late).toBe(false);
    judge.observe(201);
    expect(judge.late).toBe(true);
    judge.observe(400);
    expect(judge.late).toBe(true);
    judge.observe(200);
    expect(judge.late).toBe(false);
  });
});

/** Holds the thread for `ms` (a request that never yields). */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* spin */
  }
}

describe('the sampler', () => {
  it('finds a loop that stays busy late, and on time once it is idle', async () => {
    const loop = watchLoopDelay(20, 10);
    try {
      expect(loop.late()).toBe(false);
      // Task after task, each holding the loop far past the threshold: every sample in between is late.
      for (let i = 0; i < 6; i++) await new Promise<void>((resolve) => setTimeout(() => (busy(60), resolve()), 0));
      expect(loop.late()).toBe(true);
      await waitUntil('the idle loop is on time again', () => !loop.late());
    } finally {
      loop.stop();
    }
  });
});
