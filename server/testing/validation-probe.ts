/**
 * A validating resolver's view of a zone, asked every second: the chain's validating resolver V
 * (bind-chain.ts: the root's key its only trust anchor, its own cache, as an end user's resolver),
 * each question sent as a datagram with the DO bit. An answer counts as proven when V sets AD on
 * it (NOERROR with data, or a proven NXDOMAIN or NODATA). Every other answer (SERVFAIL for a bogus
 * one, no AD for an unsigned one, a time-out) is kept with its time, V's answer and what `delv`
 * says of the same question then, so that a rollover test can assert there were none, and say
 * which answer failed and why when there was one.
 */
import type { BindChain } from './bind-chain';
import { delv } from './delv';
import { repeatEvery } from './repeat-every';
import { askValidator, proven, summary } from './validator-query';

export interface ProbeQuestion {
  name: string;
  type: string;
}

export interface ProbeFailure extends ProbeQuestion {
  at: Date;
  output: string;
}

export interface ProbeResult {
  /** How many answers the validator was asked for. */
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
        const at = new Date();
        const answer = await askValidator(chain.validator, q.name, q.type);
        result.asked++;
        if (proven(answer)) return;
        // delv's account of the same question, through the resolver, for the failure's message.
        const second = await delv(chain.trustAnchorFile, chain.resolver, q.name, q.type);
        result.failures.push({ at, name: q.name, type: q.type, output: `${summary(answer)}\n--- delv now:\n${second.output}` });
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
