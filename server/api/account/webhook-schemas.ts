/** The shapes of the webhooks API: a webhook as its owner sees it, what creates or changes one, and a delivery with its attempts. */
import { z } from '@hono/zod-openapi';
import { DELIVERY_STATES } from '../../store/types';
import { MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH, MAX_WEBHOOK_ZONES, SECRET_LENGTH, WEBHOOK_EVENTS } from '../../services/webhooks/webhook-rules';

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

const url = z.string(required('an http or https URL')).max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`).openapi({ example: 'https://hooks.example.com/zonedeck' });
const events = z
  .array(z.string(required(`one of ${WEBHOOK_EVENTS.join(', ')}`)).max(64), required('a list of events'))
  .max(WEBHOOK_EVENTS.length * 2, `must list at most ${WEBHOOK_EVENTS.length} events`)
  .openapi({ example: ['zone.changed'], description: `Any of ${WEBHOOK_EVENTS.join(', ')} (at least one, each once)` });
const zones = z
  .array(z.string(required('a zone name')).max(254), required('a list of zone names'))
  .max(MAX_WEBHOOK_ZONES, `must list at most ${MAX_WEBHOOK_ZONES} zones`)
  .nullable()
  .openapi({ example: ['example.com'], description: 'Only events of these zones; omitted, empty or null: every zone the owner (or the team) may read' });
const secret = z
  .string(required(`a text of ${SECRET_LENGTH.min}–${SECRET_LENGTH.max} characters`))
  .openapi({ description: `${SECRET_LENGTH.min}–${SECRET_LENGTH.max} characters that sign every body; omitted: 32 random octets in hex` });
const description = z.string(required('a text')).openapi({ example: 'chat notifications' });

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    zones: z.array(z.string()).nullable(),
    team: z.string().nullable().openapi({ description: 'The team whose zones it hears of; null: every zone its owner may read' }),
    description: z.string(),
    active: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Webhook');

export const WebhookCreatedSchema = WebhookSchema.extend({ secret: z.string().openapi({ description: 'Shown in this response only' }) }).openapi('WebhookCreated');

export const WebhookCreateSchema = z
  .strictObject({
    url,
    events,
    zones: zones.optional(),
    team: z.string(required('the name of a team you belong to')).max(64).nullable().optional(),
    secret: secret.optional(),
    description: description.max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`).optional(),
  })
  .openapi('WebhookCreate');

export const WebhookUpdateSchema = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    zones: zones.optional(),
    secret: secret.optional(),
    description: description.max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`).optional(),
    active: z.boolean(required('true or false')).optional(),
  })
  .openapi('WebhookUpdate');

export const DeliverySchema = z
  .object({
    id: z.number().int().openapi({ description: 'Sent as X-Zonedeck-Delivery' }),
    event: z.string(),
    event_id: z.string().openapi({ description: "The body's id: one per event, the same in every webhook's delivery of it" }),
    zone: z.string().nullable(),
    status: z.enum(DELIVERY_STATES),
    attempts: z.array(
      z.object({
        at: z.string(),
        status_code: z.number().int().nullable().openapi({ description: 'The HTTP status answered; null when none came' }),
        error: z.string().nullable(),
        ms: z.number().int(),
      }),
    ),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('WebhookDelivery');
