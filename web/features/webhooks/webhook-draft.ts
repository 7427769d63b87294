/**
 * The webhook form's state as typed, to and from the API's terms: the zones are one text (comma- or
 * line-separated), the events a set of ticked boxes. Only "at least one event" and "a URL at all"
 * are checked here; the server checks the URL (https, an address it may reach) and names the field.
 */
import type { Webhook, WebhookCreate, WebhookUpdate } from '../../lib/api-types';

export interface WebhookDraft {
  url: string;
  events: string[];
  zones: string;
  team: string;
  description: string;
  active: boolean;
}

export const NEW_WEBHOOK: WebhookDraft = { url: '', events: ['zone.changed'], zones: '', team: '', description: '', active: true };

export const draftOfWebhook = (w: Webhook): WebhookDraft => ({
  url: w.url,
  events: [...w.events],
  zones: (w.zones ?? []).join(', '),
  team: w.team ?? '',
  description: w.description,
  active: w.active,
});

export const zonesOf = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((z) => z.trim().replace(/\.$/, '').toLowerCase())
    .filter(Boolean);

export function webhookErrors(d: WebhookDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (d.url.trim() === '') errors.url = 'is required';
  if (d.events.length === 0) errors.events = 'must name at least one event';
  return errors;
}

export function createBody(d: WebhookDraft): WebhookCreate {
  const zones = zonesOf(d.zones);
  return {
    url: d.url.trim(),
    events: d.events,
    ...(zones.length ? { zones } : {}),
    ...(d.team ? { team: d.team } : {}),
    ...(d.description.trim() ? { description: d.description.trim() } : {}),
  };
}

/** The team cannot change after creation; everything else is sent as it stands. */
export function updateBody(d: WebhookDraft): WebhookUpdate {
  const zones = zonesOf(d.zones);
  // No zones listed: null, every zone (as the API reads an empty list too).
  return { url: d.url.trim(), events: d.events, zones: zones.length > 0 ? zones : null, description: d.description.trim(), active: d.active };
}

/** The server's message for a zone names its index (`zones.1` or `zones[1]`): shown with the zone it is about. */
export function zonesError(fields: Record<string, string>, sent: string[]): string | undefined {
  if (fields.zones) return fields.zones;
  for (const [k, v] of Object.entries(fields)) {
    const m = /^zones(?:\.|\[)(\d+)\]?$/.exec(k);
    if (m) return `${sent[Number(m[1])] ?? `entry ${Number(m[1]) + 1}`}: ${v}`;
  }
  return undefined;
}
