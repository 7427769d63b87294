/**
 * What the BFF's route groups share, made once by bffApp: the services, the sessions and the
 * sign-in throttle of this app (with its clock), and what a session answers the dashboard.
 */
import type { Services } from '../services';
import type { ActiveSession, Sessions } from '../services/identity/sessions';
import type { SignInThrottle } from '../services/identity/sign-in-throttle';
import type { SessionRow } from '../store/types';

/** What GET /bff/session and every sign-in answer: never the token. */
export interface SessionInfo {
  username: string;
  csrf_token: string;
  expires_at: string;
  /** REQUIRE_2FA and no second factor yet: the dashboard leads to enrolment and reaches nothing else. */
  enrolment_required: boolean;
  /** The password is one someone else chose (generated, or reset by an administrator): the dashboard asks for a new one before anything else. */
  password_change_required: boolean;
}

export interface BffDeps {
  services: Services;
  sessions: Sessions;
  throttle: SignInThrottle;
  now: () => number;
  /** What a session answers the dashboard. */
  info(s: ActiveSession): Promise<SessionInfo>;
  /** Whether REQUIRE_2FA holds this session's user at enrolment (no TOTP and no passkey yet). */
  mustEnrol(row: SessionRow): Promise<boolean>;
  /** Refuses every call but the password change while the user's password is one someone else chose. */
  requireOwnPassword(row: SessionRow, method: string, path: string): Promise<void>;
}
