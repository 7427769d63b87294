/**
 * Lets the event loop run in the middle of long work: a big import or change set pauses every
 * few thousand rows, so that /healthz, other HTTP requests and timers are answered meanwhile
 * (DESIGN.md §17). A timer, not I/O: usable in the browser too.
 */
export const PAUSE_EVERY = 4096;

/** Resolves on the next turn of the event loop. */
export const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Resolves once the event loop has run what is waiting, I/O first (Node's setImmediate, no
 * timer's millisecond): the DNS thread's long work yields this way to the questions on its socket.
 */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Pauses when `i` is a multiple of PAUSE_EVERY (call it with a running count). */
export const pauseEvery = (i: number): Promise<void> | undefined => (i > 0 && i % PAUSE_EVERY === 0 ? pause() : undefined);
