/**
 * Whether the writes find the disk full, for `/readyz`: from the first write refused for want of
 * space until one is written again (SQLite needs no restart to use the space freed meanwhile).
 */
import { isNoSpace } from '../faults';

export class DiskState {
  private since: string | null = null;

  /** A write's outcome: its error, or undefined when it was written. */
  saw(err?: unknown): void {
    if (err === undefined) this.since = null;
    else if (isNoSpace(err)) this.since ??= new Date().toISOString();
  }

  fullSince = (): string | null => this.since;
}
