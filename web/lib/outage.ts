/**
 * Whether the service is read-only for a moment, as the dashboard's answers show it: the database
 * does not answer (503 `store_unavailable`), or the disk under it is full (507
 * `insufficient_storage`: reads go on, writes are refused whole). The shell's banner shows it; the
 * api client reports every answer here (watchAnswers), and the banner's poll says when it is over.
 */
import { ApiError } from './api-client';

export type OutageKind = 'store_unavailable' | 'insufficient_storage';

export interface Outage {
  kind: OutageKind;
  /** Seconds the server asked to wait before asking again. */
  retryAfterS: number;
}

/** What the server's Retry-After means when it sent none: the server's own figure for the database. */
export const DEFAULT_RETRY_AFTER_S = 5;

/** The outage an error is a sign of, or null when it says nothing about the service's state. */
export function outageOf(err: unknown): OutageKind | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 503 && err.code === 'store_unavailable') return 'store_unavailable';
  if (err.status === 507) return 'insufficient_storage';
  return null;
}

type Listener = (outage: Outage | null) => void;

/** The one outage state of the page, read by the banner (useSyncExternalStore) and told of every answer. */
export class OutageWatch {
  private outage: Outage | null = null;
  private readonly listeners = new Set<Listener>();

  get = (): Outage | null => this.outage;

  subscribe = (fn: Listener): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /**
   * One answer of the server: an outage error begins (or keeps) the outage; a write that went
   * through (any method but GET with a 2xx) ends it, since the database took a write. A read's
   * 2xx proves nothing on a full disk, so only the banner's poll ends an outage otherwise.
   */
  saw = (method: string, err: ApiError | null): void => {
    const kind = outageOf(err);
    if (kind) {
      // The database gone outranks a full disk: nothing at all can be written then.
      if (this.outage?.kind === 'store_unavailable' && kind === 'insufficient_storage') return;
      const retryAfterS = err?.retryAfterS ?? DEFAULT_RETRY_AFTER_S;
      if (this.outage?.kind !== kind || this.outage.retryAfterS !== retryAfterS) this.set({ kind, retryAfterS });
      return;
    }
    if (err === null && method !== 'GET' && method !== 'HEAD') this.over();
  };

  /** The service answers again (a poll said so, or a write went through). */
  over = (): void => {
    if (this.outage) this.set(null);
  };

  private set(outage: Outage | null): void {
    this.outage = outage;
    for (const fn of this.listeners) fn(outage);
  }
}

/** The page's one watch: fed by the api client (app/providers.tsx), shown by the shell's banner. */
export const outageWatch = new OutageWatch();
