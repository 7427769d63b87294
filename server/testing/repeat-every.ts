/**
 * A task run in rounds, a round every `everyMs` at most (a slow round delays the next, never
 * overlaps it), until stopped: the scanner and the probe of the DNSSEC tests. A round that throws
 * ends the rounds, and `stop()` throws its error, so a broken harness fails the test that used it.
 */
export interface Rounds {
  /** Ends the rounds after the one under way; rejects with the error a round threw, if one did. */
  stop(): Promise<void>;
}

export function repeatEvery(everyMs: number, round: () => Promise<void>): Rounds {
  let running = true;
  let failure: unknown;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        await round();
      } catch (e) {
        failure = e;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, everyMs - (Date.now() - started))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      if (failure) throw failure;
    },
  };
}
