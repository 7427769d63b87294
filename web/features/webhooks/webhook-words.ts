/** The events a webhook can subscribe to, each with what it reports, and how a delivery's state reads. */
import type { WebhookDelivery, WebhookEvent } from '../../lib/api-types';

const HELP: Record<WebhookEvent, string> = {
  'zone.changed': 'Any change set of a zone, with its records added and removed.',
  'pool.member.down': 'A pool member failed its checks and left the answer.',
  'pool.member.up': 'A pool member passed its checks and is answered again.',
  'dnssec.ds_changed': 'The DS records the parent should hold changed (a key rollover).',
  'secondary.failing': 'A secondary zone could not be refreshed from its primaries.',
  'delegation.changed': 'The delegation check found the zone newly delegated to these name servers, or no longer.',
};

/** Every event, in the order the form offers them; a new event without words here fails the type check. */
export const EVENTS = (Object.keys(HELP) as WebhookEvent[]).map((event) => ({ event, help: HELP[event] }));

export const STATUS_WORDS: Record<WebhookDelivery['status'], { label: string; tone: 'success' | 'danger' | 'warning' }> = {
  delivered: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  pending: { label: 'Pending', tone: 'warning' },
};

/** One attempt in a few words: the status code the receiver answered, or why there was none. */
export function attemptText(a: { status_code: number | null; error: string | null; ms: number }): string {
  if (a.status_code !== null) return `HTTP ${a.status_code}${a.error ? ` (${a.error})` : ''} in ${a.ms} ms`;
  return `${a.error ?? 'no answer'} after ${a.ms} ms`;
}
