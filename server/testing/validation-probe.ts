/**
 * A validating resolver's view of a zone, asked every second: `delv` with the root's key, through
 * the chain's resolver, for each question. Every answer that is not proven (a bogus or unsigned
 * answer, SERVFAIL, a time-out) is kept with its time and delv's output, so that a rollover test
 * can assert there were none, and say which answer failed when there was one.
 */
import type { BindChain } from './bind-chain';
import { delv } from './delv';
import { repeatEvery } from './repeat-every';

export interface ProbeQuestion {
  name: string;
  type: string;
}

export interface ProbeFailure extends ProbeQuestion {
  at: Date;
  output: string;
}

export interface ProbeResult {
  /** How many answers delv was asked for. */
  asked: number;
  failures: ProbeFailure[];
}

export interface ValidationProbe {
  /** What the probe has found so far (live: the arrays grow while it runs). */
  readonly result: ProbeResult;
  /** Stops asking, after the round under way, and returns everything found. */
  stop(): Promise<ProbeResult>;
}

/** Asks every question once a round, the questions of a round at the same time, a round every `everyMs` (1 s). */
export function validationProbe(chain: BindChain, questions: readonly ProbeQuestion[], opts: { everyMs?: number } = {}): ValidationProbe {
  const result: ProbeResult = { asked: 0, failures: [] };
  const rounds = repeatEvery(opts.everyMs ?? 1_000, async () => {
    await Promise.all(
      questions.map(async (q) => {
        const answer = await delv(chain.trustAnchorFile, chain.resolver, q.name, q.type);
        result.asked++;
        if (!answer.validated) result.failures.push({ at: new Date(), name: q.name, type: q.type, output: answer.output });
      }),
    );
  });
  return {
    result,
    async stop() {
      await rounds.stop();
      return result;
    },
  };
}
