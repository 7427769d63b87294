/**
 * Load shedding for the three HTTP faces (/api/v1, the PowerDNS API, /bff), as Envoy's overload
 * manager and nginx's limit_conn do it: at most HTTP_MAX_INFLIGHT requests are served at once; one
 * more waits its turn, first come first served, in a queue of at most HTTP_MAX_QUEUE for at most
 * HTTP_QUEUE_WAIT_MS; past either bound, or while the event loop is late (loop-delay.ts), it is
 * answered 503 `overloaded` with Retry-After at once, and its connection closed. Without a bound,
 * every request would be taken and each would wait longer than the last: latency and memory grow
 * for everyone, and /healthz with them. /healthz, /readyz, /metrics and the dashboard's files never pass here (they are cheap,
 * and a load balancer must see the node alive while it sheds).
 *
 * The check runs before any route: a waiting request has read nothing of its body (Node leaves it
 * in the socket until a route reads it), so a queue of N holds N requests' headers, no bodies.
 */
import type { MiddlewareHandler } from 'hono';
import { ClientGone } from '../core/errors';
import { httpLoad } from '../metrics';
import { HttpError } from './http-error';
import type { NodeBindings } from './http-server';

/** What the answer's Retry-After says: long enough for a queue of a few times the bound to drain. */
export const OVERLOAD_RETRY_AFTER_S = 2;

export type ShedReason = keyof typeof httpLoad.shed;

export interface OverloadLimits {
  /** HTTP_MAX_INFLIGHT: requests served at once. */
  maxInflight: number;
  /** HTTP_MAX_QUEUE: requests that may wait for a place (0: none waits). */
  maxQueue: number;
  /** HTTP_QUEUE_WAIT_MS: how long one may wait. */
  queueWaitMs: number;
}

/** The answer to a request shed, counted under its reason. */
export function overloaded(reason: ShedReason): HttpError {
  httpLoad.shed[reason] += 1;
  return new HttpError(503, 'overloaded', 'the service is busy: more requests than it can serve right now, and nothing of this one was done; try again in a moment', undefined, {
    'Retry-After': String(OVERLOAD_RETRY_AFTER_S),
  });
}

interface Waiter {
  admit(): void;
}

/** The places to be served and the queue for them. */
export class Admission {
  private inflight = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: OverloadLimits) {}

  /**
   * Takes a place: nothing when one is free (no promise made on the common path), else a promise
   * kept when one is handed over. Throws 503 when the queue is full; the promise fails 503 when the
   * wait runs out, and with ClientGone when `request`'s client goes away meanwhile (its place in
   * the queue goes to the next).
   */
  enter(request: { readonly signal: AbortSignal }): Promise<void> | undefined {
    // A place is free only while nobody waits (leave hands places straight to the waiting).
    if (this.inflight < this.limits.maxInflight) {
      this.inflight += 1;
      this.publish();
      return undefined;
    }
    if (this.waiting.length >= this.limits.maxQueue) throw overloaded('queue_full');
    const signal = request.signal;
    if (signal.aborted) return Promise.reject(new ClientGone());
    return new Promise((resolve, reject) => {
      const settle = (then: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', gone);
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        this.publish();
        then();
      };
      const waiter: Waiter = { admit: () => settle(resolve) };
      const gone = () => settle(() => reject(new ClientGone()));
      const timer = setTimeout(() => settle(() => reject(overloaded('queue_wait'))), this.limits.queueWaitMs);
      signal.addEventListener('abort', gone, { once: true });
      this.waiting.push(waiter);
      this.publish();
    });
  }

  /** Gives a place back: to the request that has waited longest, else free. */
  leave(): void {
    const next = this.waiting[0];
    if (next) next.admit();
    else {
      this.inflight -= 1;
      this.publish();
    }
  }

  /** Requests served now and waiting, as /metrics shows them. */
  get load(): { inflight: number; queued: number } {
    return { inflight: this.inflight, queued: this.waiting.length };
  }

  private publish(): void {
    httpLoad.inflight = this.inflight;
    httpLoad.queued = this.waiting.length;
  }
}

/** The paths shed under load: the three HTTP faces, not the health checks, metrics or the dashboard's files. */
export function sheddable(path: string): boolean {
  return path.startsWith('/api/') || path === '/api' || path.startsWith('/bff/') || path === '/bff';
}

export interface OverloadGuard {
  admission: Admission;
  /** Whether the event loop is late now (null: not watched). */
  loopLate: (() => boolean) | null;
}

/**
 * The middleware. Only requests from the network pass it: the dashboard backend's calls into the
 * API come through the app in process, inside the place their /bff request already holds.
 */
export function shedLoad({ admission, loopLate }: OverloadGuard): MiddlewareHandler<{ Bindings: NodeBindings }> {
  return async (c, next) => {
    const outgoing = c.env?.outgoing;
    if (!outgoing || !sheddable(c.req.path)) return next();
    try {
      if (loopLate?.()) throw overloaded('loop_delay');
      const wait = admission.enter(c.req.raw);
      if (wait) await wait;
    } catch (e) {
      // Envoy's "disable keep-alive" under overload: a client turned away comes back through the
      // listen queue, where the kernel holds it at no cost to this thread, rather than sending its
      // next request on the spot on a connection this thread must read at once. With 800 clients
      // that retry at once (one busy core, 6 s), keeping their connections let 64 writes through
      // and /healthz waited for the end of the flood; closing them, 1,734 writes and about a second.
      if (e instanceof HttpError) outgoing.setHeader('connection', 'close');
      throw e;
    }
    try {
      await next();
    } finally {
      admission.leave();
    }
  };
}
