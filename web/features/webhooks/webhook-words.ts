/** The events a webhook can subscribe to, each with what it reports, and how a delivery's state reads. */
import type { WebhookDelivery } from '../../lib/api-types';

export const EVENTS: Array<{ event: string; help: string }> = [
  { event: 'zone.changed', help: 'Any change set of a zone, with its records added and removed.' },
  { event: 'pool.member.down', help: 'A pool member failed its checks and left the answer.' },
  { event: 'pool.member.up', help: 'A pool member passed its checks and is answered again.' },
  { event: 'dnssec.ds_changed', help: 'The DS records the parent should hold changed (a key rollover).' },
  { event: 'secondary.failing', help: 'A secondary zone could not be refreshed from its primaries.' },
  { event: 'delegation.changed', help: "The parent's NS or DS for a zone changed." },
];

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
