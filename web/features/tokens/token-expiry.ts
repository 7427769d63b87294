/**
 * Token lifetimes as the page shows and asks for them: the state of an expiry, and the
 * optional "expires after N days" input checked with the API's own bounds before sending.
 */
import { MAX_TOKEN_DAYS } from '../../../server/core/token-rules';

export type ExpiryState = 'never' | 'expired' | 'soon' | 'later';

/** Within this many days a live token is flagged, so its owner can replace it in time. */
const SOON_DAYS = 7;

export function expiryState(expiresAt: string | null, now = Date.now()): ExpiryState {
  if (!expiresAt) return 'never';
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return 'expired';
  return left <= SOON_DAYS * 86_400_000 ? 'soon' : 'later';
}

/** The days field: blank means no expiry; otherwise a whole number in the API's range. */
export function parseExpiryDays(text: string): { days?: number; error?: string } {
  const t = text.trim();
  if (t === '') return {};
  if (!/^[0-9]+$/.test(t)) return { error: 'must be a whole number of days' };
  const days = Number(t);
  if (days < 1 || days > MAX_TOKEN_DAYS) return { error: `must be between 1 and ${MAX_TOKEN_DAYS} days` };
  return { days };
}
