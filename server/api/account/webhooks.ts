/**
 * Webhooks of the current user: create (the secret is in that one response only), list, read,
 * change, delete; each one's delivery log, a redelivery, a ping. Another user's webhook answers
 * 404 like a missing one. A token with a scope manages none: a webhook hears of every zone its
 * owner may read, more than the token may.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden } from '../../core/errors';
import { isRestricted } from '../../core/scope';
import type { Services } from '../../services';
import type { DeliveryRow, WebhookRow } from '../../store/types';
import type { ApiEnv } from '../auth';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { pathId } from '../path-id';
import { DeliverySchema, WebhookCreatedSchema, WebhookCreateSchema, WebhookSchema, WebhookUpdateSchema } from './webhook-schemas';

const tags = ['Webhooks'];
const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: '7' }) });
const deliveryParam = idParam.extend({ delivery: z.string().openapi({ param: { name: 'delivery', in: 'path' }, example: '42' }) });

const list = createRoute({
  method: 'get',
  path: '/webhooks',
  summary: "List the current user's webhooks (never their secrets)",
  tags,
  security,
  responses: { 200: { description: 'Webhooks, oldest first', content: json(z.array(WebhookSchema)) }, ...errors(403) },
});
const create = createRoute({
  method: 'post',
  path: '/webhooks',
  summary: 'Add a webhook; its secret is shown in this response only',
  tags,
  security,
  request: { body: { required: true, content: json(WebhookCreateSchema) } },
  responses: { 201: { description: 'The new webhook with its secret', content: json(WebhookCreatedSchema) }, ...errors(400, 403, 408, 413) },
});
const read = createRoute({
  method: 'get',
  path: '/webhooks/{id}',
  summary: 'One webhook',
  tags,
  security,
  request: { params: idParam },
  responses: { 200: { description: 'The webhook', content: json(WebhookSchema) }, ...errors(403, 404) },
});
const change = createRoute({
  method: 'put',
  path: '/webhooks/{id}',
  summary: 'Change a webhook: the fields given, the others as they are',
  tags,
  security,
  request: { params: idParam, body: { required: true, content: json(WebhookUpdateSchema) } },
  responses: { 200: { description: 'The webhook as changed', content: json(WebhookSchema) }, ...errors(400, 403, 404, 408, 413) },
});
const remove = createRoute({
  method: 'delete',
  path: '/webhooks/{id}',
  summary: 'Delete a webhook and its delivery log',
  tags,
  security,
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errors(403, 404) },
});
const deliveries = createRoute({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  summary: "A webhook's deliveries, newest first, each with every attempt",
  tags,
  security,
  request: { params: idParam, query: z.object(pageQuery) },
  responses: { 200: { description: 'Deliveries, newest first', headers: pageHeaders, content: json(z.array(DeliverySchema)) }, ...errors(400, 403, 404) },
});
const redeliver = createRoute({
  method: 'post',
  path: '/webhooks/{id}/deliveries/{delivery}/redeliver',
  summary: 'Send a delivery again now (a failed one is retried again)',
  tags,
  security,
  request: { params: deliveryParam },
  responses: { 202: { description: 'Queued', content: json(DeliverySchema) }, ...errors(403, 404) },
});
const ping = createRoute({
  method: 'post',
  path: '/webhooks/{id}/ping',
  summary: 'Send the webhook a ping event now',
  tags,
  security,
  request: { params: idParam },
  responses: { 202: { description: 'Queued', content: json(DeliverySchema) }, ...errors(403, 404) },
});

export function webhooksApi(services: Services) {
  const { webhooks, store } = services;
  /** The request's user, with a credential without a scope. */
  const owner = (c: Context<ApiEnv>) => {
    const { user, scope } = c.get('principal');
    if (isRestricted(scope)) throw new Forbidden('a token with a scope cannot manage webhooks');
    return user;
  };
  const id = (c: Context<ApiEnv>) => pathId(c.req.param('id') ?? '', 'webhook');
  const view = async (w: WebhookRow) => ({
    id: w.id,
    url: w.url,
    events: w.events as z.infer<typeof WebhookSchema>['events'],
    zones: w.zones,
    team: w.team_id === null ? null : ((await store.teams.byId(w.team_id))?.name ?? null),
    description: w.description,
    active: w.active,
    created_at: w.created_at,
  });
  const deliveryView = ({ webhook_id: _w, body: _b, ...d }: DeliveryRow) => d;
  return createApi()
    .endpoint(list, async (c) => c.json(await Promise.all((await webhooks.list(owner(c))).map(view)), 200))
    .endpoint(create, async (c) => {
      const user = owner(c);
      await services.secondFactors.requireRecentSignIn(c.get('principal').token.id, 'adding a webhook');
      const row = await webhooks.create(user, c.req.valid('json'));
      // The secret must not linger in any cache between here and its reader.
      c.header('Cache-Control', 'no-store');
      return c.json({ ...(await view(row)), secret: row.secret }, 201);
    })
    .endpoint(read, async (c) => c.json(await view(await webhooks.get(owner(c), id(c))), 200))
    .endpoint(change, async (c) => {
      const user = owner(c);
      const body = c.req.valid('json');
      // Where the events go, and what proves them, are changed after a fresh sign-in only, as a token is made.
      if (body.url !== undefined || body.secret !== undefined) await services.secondFactors.requireRecentSignIn(c.get('principal').token.id, 'changing where a webhook posts');
      return c.json(await view(await webhooks.update(user, id(c), body)), 200);
    })
    .endpoint(remove, async (c) => {
      await webhooks.remove(owner(c), id(c));
      return c.body(null, 204);
    })
    .endpoint(deliveries, async (c) => {
      const p = pageParams(c.req.valid('query'));
      const { rows, total } = await webhooks.deliveries(owner(c), id(c), p.window);
      setPageHeaders(c, total, p);
      return c.json(rows.map(deliveryView), 200);
    })
    .endpoint(redeliver, async (c) => {
      const delivery = pathId(c.req.valid('param').delivery, 'delivery');
      return c.json(deliveryView(await webhooks.redeliver(owner(c), id(c), delivery)), 202);
    })
    .endpoint(ping, async (c) => c.json(deliveryView(await webhooks.ping(owner(c), id(c))), 202));
}
