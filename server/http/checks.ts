/**
 * The checks every API request passes before its handler (rate limits, token, scope, query
 * text, body), run in order in one Hono layer: each layer of its own would cost a dispatch and
 * a promise per request, and a check that has nothing to wait for returns without one.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';

/** Throws to refuse the request; may set context variables for the checks and handler after it. */
// `any` as in Hono's own MiddlewareHandler: a check is typed by the variables it reads, not the whole app's.
export type Check<E extends Env = any> = (c: Context<E>) => void | Promise<void>;

/** Runs the checks in order (a null one is a check that is switched off), then the handler. */
export function runChecks(checks: ReadonlyArray<Check | null>): MiddlewareHandler {
  const list = checks.filter((check): check is Check => check !== null);
  return async (c, next) => {
    for (const check of list) {
      const pending = check(c);
      if (pending !== undefined) await pending;
    }
    return next();
  };
}

/** The same check as a middleware of its own (the PowerDNS API chains its own layers). */
export function asMiddleware<E extends Env>(check: Check<E> | null): MiddlewareHandler<E> {
  if (check === null) return (_, next) => next();
  return async (c, next) => {
    await check(c);
    return next();
  };
}
