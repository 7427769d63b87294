/**
 * What a webhook may be: the events it can take, a URL zonedeck may post to, a secret long enough
 * to sign with. Each rule throws RuleError; the service records it under the field it came from.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { RuleError } from '../../core/errors';

/** The events a webhook may take (a `ping` comes to every webhook on demand, whatever it takes). */
export const WEBHOOK_EVENTS = ['zone.changed', 'pool.member.down', 'pool.member.up', 'dnssec.ds_changed', 'secondary.failing', 'delegation.changed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Every event a delivery can carry. */
export type DeliveredEvent = WebhookEvent | 'ping';

export const MAX_URL_LENGTH = 2000;
export const MAX_DESCRIPTION_LENGTH = 500;
export const MAX_WEBHOOK_ZONES = 100;
export const SECRET_LENGTH = { min: 16, max: 256 };
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Why an address may not be reached (a loopback, private, link-local … one), or null when it may. */
export type AddressRefusal = (ip: string) => string | null;

/**
 * The URL as it will be posted to. An IP literal that `refusal` refuses is refused here at once
 * unless private addresses are allowed; a host name is judged by every address it resolves to at
 * each delivery, for a name may change what it points at after it was checked.
 */
export function webhookUrl(input: string, refusal: AddressRefusal, allowPrivate: boolean): string {
  if (input.length > MAX_URL_LENGTH) throw new RuleError(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new RuleError('must be an http or https URL, like https://hooks.example.com/zonedeck');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RuleError('must be an http or https URL, like https://hooks.example.com/zonedeck');
  if (url.hash) throw new RuleError('must not have a #fragment: it is never sent');
  if (url.username || url.password) throw new RuleError('must not hold a user name or password: check the signature instead');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivate && isIP(host)) {
    const why = refusal(host);
    if (why) throw new RuleError(`points at ${host}, ${why}: webhooks reach such addresses only with WEBHOOK_ALLOW_PRIVATE=true`);
  }
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) throw new RuleError('points at this machine: webhooks reach it only with WEBHOOK_ALLOW_PRIVATE=true');
  return url.href;
}

/** The events, each known and listed once; at least one. */
export function webhookEvents(input: readonly string[], fail: (field: string, message: string) => void): WebhookEvent[] {
  if (input.length === 0) fail('events', `must list at least one of ${WEBHOOK_EVENTS.join(', ')}`);
  const seen = new Set<string>();
  input.forEach((e, i) => {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(e)) fail(`events.${i}`, `must be one of ${WEBHOOK_EVENTS.join(', ')}`);
    else if (seen.has(e)) fail(`events.${i}`, `lists ${e} a second time`);
    seen.add(e);
  });
  return [...seen].filter((e): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e));
}

/** The secret given, or 32 random octets in hex. */
export function webhookSecret(input: string | undefined): string {
  if (input === undefined) return randomBytes(32).toString('hex');
  if (input.length < SECRET_LENGTH.min || input.length > SECRET_LENGTH.max) throw new RuleError(`must be ${SECRET_LENGTH.min}–${SECRET_LENGTH.max} characters`);
  if (CONTROL_CHARS.test(input)) throw new RuleError('must not contain control characters');
  return input;
}

export function webhookDescription(input: string): string {
  if (input.length > MAX_DESCRIPTION_LENGTH) throw new RuleError(`must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  if (CONTROL_CHARS.test(input)) throw new RuleError('must not contain control characters');
  return input;
}
