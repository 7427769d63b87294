/** `GET /ips`: the current user's IP records, paginated. */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaderValues, pageHeaders, pageParams, pageQuery } from '../pagination';
import { IpSchema } from '../zones/schemas';

const list = createRoute({
  method: 'get',
  path: '/ips',
  summary: 'List the IP addresses registered to the current user',
  tags: ['IPs'],
  security,
  request: { query: z.object(pageQuery) },
  responses: {
    200: { description: 'IP records', headers: pageHeaders, content: json(z.array(IpSchema)) },
    ...errors(400),
  },
});

/** The JSON of a page the service served from its cache: the same page object is serialized once. */
const serialized = new WeakMap<object, string>();

export function ipsApi(services: Services) {
  return createApi().endpoint(list, async (c) => {
    const p = pageParams(c.req.valid('query'));
    const { rows, total } = await services.ips.page(c.get('principal').user.id, p.window);
    let body = serialized.get(rows);
    if (body === undefined) {
      body = JSON.stringify(rows);
      serialized.set(rows, body);
    }
    // A plain header object (nothing is set on the context before the handler): over HTTP
    // @hono/node-server writes it as it is, where c.header() would build a Headers first.
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json', ...pageHeaderValues(c, total, p) } }) as never;
  });
}
