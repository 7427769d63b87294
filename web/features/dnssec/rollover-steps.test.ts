import { describe, expect, it } from 'vitest';
import { timeline } from './rollover-steps';

describe('rollover timeline', () => {
  it('marks the steps before the current one done and those after it next', () => {
    expect(timeline({ kind: 'algorithm', step: 'submit' }).map((s) => s.state)).toEqual(['done', 'done', 'now', 'next', 'next']);
    expect(timeline({ kind: 'zsk', step: 'publish' }).map((s) => [s.step, s.state])).toEqual([
      ['publish', 'now'],
      ['switch', 'next'],
      ['remove', 'next'],
    ]);
  });

  it('shows every step ahead for a step it does not know, rather than claiming any done', () => {
    expect(timeline({ kind: 'csk', step: 'later' }).map((s) => s.state)).toEqual(['next', 'next', 'next']);
  });
});
