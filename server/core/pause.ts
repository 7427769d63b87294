/**
 * Lets the event loop run in the middle of long work: a big import or change set pauses every
 * few thousand rows, so that /healthz, other HTTP requests and timers are answered meanwhile
 *. A timer, not I/O: usable in the browser too.
 */
import { ClientGone } from './errors';

export const PAUSE_EVERY = 4096;

/** Resolves on the next turn of the event loop. */
export const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Resolves once the event loop has run what is waiting, I/O first (Node's setImmediate, no
 * timer's millisecond): the DNS thread's long work yields this way to the questions on its socket.
 */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Longest stretch of one request's long work between two turns of the event loop. Well under the
 * ~100 ms a probe or a user notices, and long enough that the turns cost little.
 */
export const SLICE_MS = 40;

/** A yield point of one long piece of work; `await` it between items (it seldom waits). */
export type Slicer = () => Promise<void>;

/**
 * Yield points by time, not by count (an item may cost a microsecond or a millisecond): the event
 * loop turns once SLICE_MS has passed since the last turn. With `signal`, each point also stops
 * the work, by throwing ClientGone, once the signal is aborted (the client went away): work done in
 * a transaction is then rolled back whole.
 */
export function slicer(signal?: AbortSignal, ms = SLICE_MS): Slicer {
  let since = performance.now();
  return async () => {
    if (signal?.aborted) throw new ClientGone();
    if (performance.now() - since < ms) return;
    await turn();
    since = performance.now();
    if (signal?.aborted) throw new ClientGone();
  };
}

/** Pauses when `i` is a multiple of PAUSE_EVERY (call it with a running count). */
export const pauseEvery = (i: number): Promise<void> | undefined => (i > 0 && i % PAUSE_EVERY === 0 ? pause() : undefined);
