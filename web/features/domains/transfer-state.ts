/** How a secondary zone's transfer state reads: a word, its colour, and one sentence of what it means. */
import type { Domain } from '../../lib/api-types';

export type TransferState = NonNullable<Domain['transfer']>['state'];

export const transferStates: Record<TransferState, { label: string; tone: 'success' | 'info' | 'warning' | 'danger'; meaning: string }> = {
  ok: { label: 'OK', tone: 'success', meaning: 'The last check reached a primary and the zone is current.' },
  refreshing: { label: 'Refreshing', tone: 'info', meaning: 'Not transferred yet: the zone is answered once the first transfer lands.' },
  failing: { label: 'Failing', tone: 'warning', meaning: 'The last check failed; the zone is still answered until it expires.' },
  expired: { label: 'Expired', tone: 'danger', meaning: 'No refresh within the SOA expire time: the zone is answered SERVFAIL until a transfer succeeds.' },
};
