/**
 * The steps of each kind of rollover in the order the server makes them (RFC 7583 timelines: ZSK
 * pre-publication, KSK/CSK double-DS; RFC 6781 for a new algorithm), each in a few plain words, and
 * where a running rollover stands among them.
 */
import type { RolloverKind, STEPS } from '../../../server/services/dnssec/rollover-steps';
import type { Rollover } from '../../lib/api-types';

export interface StepWords {
  step: string;
  title: string;
}

/** The server's step names of each kind, so a step renamed there fails the typecheck here. */
type StepsOf = { [K in RolloverKind]: { step: (typeof STEPS)[K][number]; title: string }[] };

export const ROLLOVER_STEPS: Record<Rollover['kind'], StepWords[]> = {
  zsk: [
    { step: 'publish', title: 'The new ZSK is published, not signing yet' },
    { step: 'switch', title: 'The new ZSK signs; the old one stays published' },
    { step: 'remove', title: 'The old ZSK is removed' },
  ],
  ksk: [
    { step: 'publish', title: 'The new KSK is published and signs the key set' },
    { step: 'submit', title: 'The parent is asked for the new DS' },
    { step: 'remove', title: 'The old KSK is removed' },
  ],
  csk: [
    { step: 'publish', title: 'The new key is published and signs beside the old' },
    { step: 'submit', title: 'The parent is asked for the new DS' },
    { step: 'remove', title: 'The old key is removed' },
  ],
  algorithm: [
    { step: 'sign', title: 'The new keys sign, not yet published' },
    { step: 'publish', title: 'The new keys are published' },
    { step: 'submit', title: 'The parent is asked for the new DS' },
    { step: 'withdraw', title: 'The old keys leave the key set, still signing' },
    { step: 'remove', title: 'The old keys are removed' },
  ],
} satisfies StepsOf;

export const KIND_WORDS: Record<Rollover['kind'], string> = {
  zsk: 'ZSK rollover',
  ksk: 'KSK rollover',
  csk: 'CSK rollover',
  algorithm: 'Algorithm rollover',
};

export type StepState = 'done' | 'now' | 'next';

/** Each step of the rollover's kind with whether it is behind, in progress or ahead. */
export function timeline(r: Pick<Rollover, 'kind' | 'step'>): (StepWords & { state: StepState })[] {
  const steps = ROLLOVER_STEPS[r.kind];
  const at = steps.findIndex((s) => s.step === r.step);
  return steps.map((s, i) => ({ ...s, state: i < at ? 'done' : i === at ? 'now' : 'next' }));
}
