/**
 * Sends the deliveries queued by `emit`: each node polls for the pending deliveries that are due,
 * takes each one's lease (so two nodes never send the same attempt), posts its body with the three
 * headers, and records the attempt. A 2xx delivers it; anything else (another status, no answer, an
 * address refused) is tried again after WEBHOOK_RETRY_FIRST_S, then twice as long each time up to an
 * hour, until 24 hours after the event; then it is `failed`. The network itself is handed in by the
 * composition root (server/outbound: address policy, timeouts, bounded reads).
 */
import { createHmac } from 'node:crypto';
import { webhookDeliveries } from '../../metrics';
import type { DeliveryAttempt, DeliveryRow, DeliveryState, ServiceStore } from '../../store/types';

/** What a delivery asks of the network (server/outbound's `deliver`). */
export interface OutboundDelivery {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}
export interface OutboundResult {
  status: number | null;
  error: string | null;
  ms: number;
}
export interface WebhookNetwork {
  /** Why an address may not be reached without WEBHOOK_ALLOW_PRIVATE (null: it may); judges a URL's IP literal when a webhook is saved. */
  addressRefusal?: (ip: string) => string | null;
  /** Posts the body; never throws. */
  deliver(d: OutboundDelivery, policy: { allowPrivate: boolean }): Promise<OutboundResult>;
}

export interface DriverOptions {
  /** This node's name in the leases. */
  node: string;
  log: { warn(o: object, m: string): void; error(o: object, m: string): void };
  now?: () => Date;
}

const POLL_MS = 2_000;
/** A delivery's lease: longer than one attempt can take, so it never runs out under a send. */
const LEASE_MS = 60_000;
const TIMEOUT_MS = 10_000;
const PARALLEL = 8;
const MAX_WAIT_S = 3_600;
/** Deliveries are retried until this long after their event. */
export const RETRY_FOR_MS = 24 * 3_600_000;

/** The signature header's value: HMAC-SHA256 of the body's octets under the secret, in hex. */
export const signature = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** What follows a failed attempt: the next one after the doubled wait, or `failed` once that is past the 24 hours. */
export function afterFailure(delivery: Pick<DeliveryRow, 'created_at' | 'attempts'>, at: Date, firstS: number): { status: DeliveryState; next_attempt_at: string | null } {
  const failures = delivery.attempts.filter((a) => a.status_code === null || a.status_code < 200 || a.status_code > 299).length + 1;
  const wait = Math.min(MAX_WAIT_S, firstS * 2 ** Math.min(failures - 1, 20));
  const next = at.getTime() + wait * 1000;
  if (next > Date.parse(delivery.created_at) + RETRY_FOR_MS) return { status: 'failed', next_attempt_at: null };
  return { status: 'pending', next_attempt_at: new Date(next).toISOString() };
}

export class DeliveryDriver {
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Set<number>();
  private polling = false;
  private again = false;
  private readonly now: () => Date;

  constructor(
    private readonly store: ServiceStore,
    private readonly network: WebhookNetwork,
    private readonly policy: { allowPrivate: boolean; retryFirstS: number },
    private readonly options: DriverOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    void this.poll();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Looks for due deliveries now (a new event, a redelivery), not at the next tick. */
  soon(): void {
    if (this.timer) void this.poll();
  }

  /** Sends the deliveries due, a few at a time; a database failure is logged and the next poll tries again. */
  async poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    try {
      do {
        this.again = false;
        const free = PARALLEL - this.running.size;
        if (free <= 0) return;
        const due = await this.store.webhookDeliveries.due(this.now().toISOString(), PARALLEL * 2);
        for (const id of due.filter((id) => !this.running.has(id)).slice(0, free)) void this.send(id);
      } while (this.again);
    } catch (err) {
      this.options.log.warn({ err }, 'webhooks: cannot read which deliveries are due');
    } finally {
      this.polling = false;
    }
  }

  /** One attempt at one delivery under its lease; resolves once it is recorded (or another node has it). */
  async send(id: number): Promise<void> {
    if (this.running.has(id)) return;
    this.running.add(id);
    const { node, log } = this.options;
    try {
      const start = this.now();
      const delivery = await this.store.webhookDeliveries.claim(id, node, start.toISOString(), new Date(start.getTime() + LEASE_MS).toISOString());
      if (!delivery) return;
      const hook = await this.store.webhooks.byId(delivery.webhook_id);
      if (!hook) return;
      let attempt: DeliveryAttempt;
      if (!hook.active && delivery.event !== 'ping') {
        attempt = { at: start.toISOString(), status_code: null, error: 'not sent: the webhook is inactive', ms: 0 };
      } else {
        const headers = {
          'content-type': 'application/json',
          'user-agent': 'zonedeck-webhooks',
          'x-zonedeck-event': delivery.event,
          'x-zonedeck-delivery': String(delivery.id),
          'x-zonedeck-signature': signature(hook.secret, delivery.body),
        };
        const r = await this.network.deliver({ url: hook.url, body: delivery.body, headers, timeoutMs: TIMEOUT_MS }, { allowPrivate: this.policy.allowPrivate });
        attempt = { at: start.toISOString(), status_code: r.status, error: r.error, ms: Math.round(r.ms) };
      }
      const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code <= 299;
      const next = ok ? { status: 'delivered' as const, next_attempt_at: null } : afterFailure(delivery, this.now(), this.policy.retryFirstS);
      await this.store.webhookDeliveries.finish(id, node, attempt, next);
      const outcome = ok ? 'delivered' : next.status === 'failed' ? 'failed' : 'retrying';
      const key = `${delivery.event} ${outcome}`;
      webhookDeliveries.set(key, (webhookDeliveries.get(key) ?? 0) + 1);
      if (next.status === 'pending') this.wake(next.next_attempt_at!);
    } catch (err) {
      log.error({ err, delivery: id }, 'a webhook delivery could not be recorded; it is tried again once its lease runs out');
    } finally {
      this.running.delete(id);
    }
  }

  /** A retry due before the next tick (a short WEBHOOK_RETRY_FIRST_S) is looked for on time. */
  private wake(at: string): void {
    const ms = Date.parse(at) - this.now().getTime();
    if (this.timer && ms < POLL_MS) setTimeout(() => void this.poll(), Math.max(0, ms) + 5).unref();
  }
}
