/**
 * What every way of signing in to the dashboard shares (a password, a passkey, single sign-on):
 * the throttle's reservation before a secret is checked, and the session that begins after, which
 * ends the one the browser held and is audited.
 */
import type { Context } from 'hono';
import { clientAddress } from '../http/client-address';
import type { ActiveSession } from '../services/identity/sessions';
import type { Attempt } from '../services/identity/sign-in-throttle';
import type { UserRow } from '../store/types';
import type { BffDeps } from './bff-deps';
import { readSessionCookie, writeSessionCookie } from './cookie';
import { BffError } from './errors';

/** The browser's address and user agent, as the audit log records them. */
export const requestFrom = (c: Context) => ({ address: clientAddress(c) ?? '', userAgent: c.req.header('user-agent') ?? '' });

/**
 * Counts the try before its secret is checked (parallel guesses cannot all pass); 429 with
 * Retry-After while the throttle says to wait. `what` names the tries in the message.
 */
export async function reserveTry(c: Context, { throttle }: Pick<BffDeps, 'throttle'>, attempt: Attempt, what: 'sign-ins' | 'attempts'): Promise<void> {
  const wait = await throttle.reserve(attempt);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    c.header('Retry-After', String(seconds));
    throw new BffError(429, 'too_many_attempts', `Too many failed ${what}. Try again in ${seconds} s.`);
  }
}

/**
 * Begins `user`'s session after a sign-in by `method`: a fresh session id at every sign-in (no
 * fixation), ending the one the browser still held; audited with the session's id and `detail`.
 */
export async function beginSession(
  c: Context,
  { sessions, services }: Pick<BffDeps, 'sessions' | 'services'>,
  user: UserRow,
  method: 'password' | 'passkey' | 'oidc',
  detail: Record<string, unknown> = {},
): Promise<ActiveSession> {
  const previous = await sessions.resume(readSessionCookie(c));
  if (previous) await sessions.end(previous.row);
  const { secret, row } = await sessions.start(user, method, requestFrom(c));
  await services.audit.record({
    kind: 'sign-in',
    actor: { userId: user.id, username: user.username, credential: method, ...requestFrom(c) },
    subject: { id: user.id, username: user.username },
    detail: { session_id: row.token_id, ...detail },
  });
  writeSessionCookie(c, secret);
  return { row, token: '', username: user.username };
}
