/**
 * The one queue every change to the index goes through: the start-up load, each event, the
 * catalog's rebuild, the reconcile. Each task starts once the one before it ended, so a task reads
 * the store only after the previous one is applied, and the last read of a name always reflects
 * the last committed write. A task that fails is reported and the queue goes on.
 */
export class SyncQueue {
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly onError?: (err: unknown) => void) {}

  /** Runs `task` after every task queued before it; resolves when it has run (never rejects). */
  push(task: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(task).catch((err: unknown) => this.onError?.(err));
    return this.chain;
  }

  /** Resolves once every task queued so far has run. */
  settled(): Promise<void> {
    return this.push(async () => {});
  }
}
