/**
 * Dashboard sessions: each holds an API token minted at sign-in, sealed
 * with the cookie value and kept in the database, so sessions survive a restart. A session
 * ends at sign-out, after an idle period, or at its absolute expiry, whichever is first.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServiceStore, SessionRow, UserRow } from '../../store/types';
import { watchClockSteps, type ClockSteps } from '../clock-steps';
import type { Accounts } from './accounts';
import { hashSessionSecret, newSessionSecret, seal, unseal } from './seal';

export interface SessionTimes {
  /** A session unused for this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: number;
}

export const DEFAULT_SESSION_TIMES: SessionTimes = { idleMs: 60 * 60_000, absoluteMs: 12 * 60 * 60_000 };

/** last_seen_at is written at most this often, so most requests stay reads. */
const TOUCH_INTERVAL_MS = 60_000;
/** Expired rows are swept at most this often (on sign-in), without a timer. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

export interface ActiveSession {
  row: SessionRow;
  /** The API token this session acts with; never leaves the server. */
  token: string;
  username: string;
}

/** Where a sign-in came from, as the session keeps it (Account → Sessions shows it). */
export interface SignInFrom {
  userAgent?: string;
  address?: string;
}

const MAX_USER_AGENT = 256;
/** Longer than any IPv6 address with a zone. */
const MAX_ADDRESS = 64;

export function createSessions(store: ServiceStore, accounts: Accounts, times: SessionTimes = DEFAULT_SESSION_TIMES, clock: ClockSteps = watchClockSteps()) {
  const now = clock.now;
  let lastSweep = 0;

  /** Ends a session and revokes its token; the sessions row also goes with the token (FK cascade). */
  async function end(row: SessionRow): Promise<void> {
    await store.sessions.delete(row.id_hash);
    await accounts.revokeToken(row.token_id).catch(() => {});
  }

  /**
   * The idle time leaves out what a forward step of the clock added since the session was last
   * seen (NTP putting a slow clock right must not sign everybody out). The absolute limit does
   * not: the session's API token expires on the wall clock too, and a backward step lets a
   * session outlive it by no more than the step.
   */
  const idleUntil = (row: SessionRow) => {
    const seen = Date.parse(row.last_seen_at);
    return seen + times.idleMs + clock.forwardSince(seen);
  };

  function expired(row: SessionRow, at: number): boolean {
    return Date.parse(row.expires_at) <= at || idleUntil(row) <= at;
  }

  return {
    times,

    /** Starts a session for a user who just proved who they are (`method`: how); returns the cookie value. */
    async start(user: UserRow, method: 'password' | 'passkey' | 'oidc' = 'password', from: SignInFrom = {}): Promise<{ secret: string; row: SessionRow }> {
      const at = now();
      if (at - lastSweep > SWEEP_INTERVAL_MS) {
        lastSweep = at;
        await store.sessions.deleteExpired(new Date(at).toISOString());
      }
      const expiresAt = new Date(at + times.absoluteMs).toISOString();
      const { row: tokenRow, token } = await accounts.createToken(user.id, 'dashboard session', expiresAt, undefined, true);
      const secret = newSessionSecret();
      const iso = new Date(at).toISOString();
      const row = await store.sessions.insert({
        id_hash: hashSessionSecret(secret),
        user_id: user.id,
        token_id: tokenRow.id,
        token_sealed: seal(secret, token),
        csrf_token: randomBytes(24).toString('base64url'),
        created_at: iso,
        last_seen_at: iso,
        expires_at: expiresAt,
        authenticated_at: iso,
        sign_in_method: method,
        // Bounded: a header is the client's to make as long as it likes.
        user_agent: from.userAgent ? from.userAgent.slice(0, MAX_USER_AGENT) : null,
        address: from.address ? from.address.slice(0, MAX_ADDRESS) : null,
      });
      return { secret, row };
    },

    /** The live session of a cookie value, or null; an expired one is ended on the way. */
    async resume(secret: string | undefined): Promise<ActiveSession | null> {
      if (!secret || secret.length > 100) return null;
      const row = await store.sessions.byIdHash(hashSessionSecret(secret));
      if (!row) return null;
      const at = now();
      if (expired(row, at)) {
        await end(row);
        return null;
      }
      const token = unseal(secret, row.token_sealed);
      const user = token ? await store.users.byId(row.user_id) : undefined;
      // A user disabled meanwhile is signed out, whatever their browser still holds.
      if (!token || !user || user.disabled_at) {
        await end(row);
        return null;
      }
      if (at - Date.parse(row.last_seen_at) >= TOUCH_INTERVAL_MS) {
        const seen = new Date(at).toISOString();
        await store.sessions.touch(row.id_hash, seen);
        row.last_seen_at = seen;
      }
      return { row, token, username: user.username };
    },

    end,

    /** The user proved who they are again (password, and second factor): sensitive acts are open for 10 minutes. */
    async reauthenticated(row: SessionRow): Promise<void> {
      await store.sessions.authenticated(row.id_hash, new Date(now()).toISOString());
    },

    /** Whether a presented CSRF token is this session's, compared in constant time. */
    csrfMatches(row: SessionRow, presented: string | undefined): boolean {
      if (!presented) return false;
      const a = Buffer.from(row.csrf_token);
      const b = Buffer.from(presented);
      return a.length === b.length && timingSafeEqual(a, b);
    },

    /** When the session ends if it stays idle from now (for the SPA's information). */
    endsAt(row: SessionRow): string {
      return new Date(Math.min(Date.parse(row.expires_at), idleUntil(row))).toISOString();
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
