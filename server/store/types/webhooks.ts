/** Webhooks (migration 0030): users' endpoints, the events each takes, and the deliveries to them with every attempt. */
import type { Page, Window } from './common';

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface WebhookRow {
  id: number;
  user_id: number;
  /** The team whose zones it covers; null: every zone its user may read. */
  team_id: number | null;
  url: string;
  events: string[];
  /** Zone names it is limited to; null: no limit. */
  zones: string[] | null;
  description: string;
  /** The secret in clear (the store seals it at rest). */
  secret: string;
  active: boolean;
  created_at: string;
}

export type NewWebhook = Omit<WebhookRow, 'id'>;
export type WebhookChange = Partial<Pick<WebhookRow, 'url' | 'events' | 'zones' | 'description' | 'secret' | 'active'>>;

/** One try at sending a delivery: when, the HTTP status (null when none came) or the error, how long it took. */
export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  error: string | null;
  ms: number;
}

export interface DeliveryRow {
  id: number;
  webhook_id: number;
  event: string;
  event_id: string;
  zone: string | null;
  body: string;
  status: DeliveryState;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
}

export type NewDelivery = Pick<DeliveryRow, 'webhook_id' | 'event' | 'event_id' | 'zone' | 'body' | 'created_at'> & { next_attempt_at: string };

export interface WebhookRepos {
  webhooks: {
    insert(row: NewWebhook): Promise<WebhookRow>;
    byId(id: number): Promise<WebhookRow | undefined>;
    listByUser(userId: number): Promise<WebhookRow[]>;
    /** The active webhooks that take this event, of every user (emit filters them by who may read the zone). */
    activeFor(event: string): Promise<WebhookRow[]>;
    update(id: number, change: WebhookChange): Promise<WebhookRow | undefined>;
    /** Deletes the webhook and its deliveries. */
    delete(id: number): Promise<boolean>;
  };
  webhookDeliveries: {
    insertMany(rows: readonly NewDelivery[]): Promise<void>;
    byId(webhookId: number, id: number): Promise<DeliveryRow | undefined>;
    /** A webhook's deliveries, newest first. */
    page(webhookId: number, w: Window): Promise<Page<DeliveryRow>>;
    /** Pending deliveries due at `now` whose lease is free, oldest due first, at most `limit` ids. */
    due(now: string, limit: number): Promise<number[]>;
    /** Takes the delivery's lease for `holder` until `until` if it is pending, due and free: the row, or undefined when another node has it. */
    claim(id: number, holder: string, now: string, until: string): Promise<DeliveryRow | undefined>;
    /** Records an attempt and what follows it (the lease given back); nothing when the lease is no longer `holder`'s. */
    finish(id: number, holder: string, attempt: DeliveryAttempt, next: { status: DeliveryState; next_attempt_at: string | null }): Promise<void>;
    /** Makes the delivery pending and due at `at` (a redelivery). */
    redeliver(id: number, at: string): Promise<void>;
    /** Deletes the deliveries made before `before`; how many. */
    prune(before: string): Promise<number>;
  };
}
