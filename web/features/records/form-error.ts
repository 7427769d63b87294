/** The server's refusal as a record form shows it. */
import { ApiError } from '../../lib/api-client';
import { isStale } from '../../lib/zone-serial';
import { useZoneConflict } from '../../ui/zone-conflict';

/** Any failure as an ApiError, so the form can put it next to its field or above the buttons. */
export const asApiError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(0, 'client', e instanceof Error ? e.message : String(e)));

/** The refusal a form still shows: once the user has reloaded after a conflict, the 412 no longer applies. */
export function useCurrentError(): (e: ApiError | null) => ApiError | null {
  const { conflict } = useZoneConflict();
  return (e) => (e && isStale(e) && !conflict ? null : e);
}
