/** `GET /ips` (SPEC.md §4.1): the current user's IP records, paginated. */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../services';
import { createApi, errors, json, security } from './create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from './pagination';
import { IpSchema } from './schemas';

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
  return createApi().openapi(list, async (c) => {
    const p = pageParams(c.req.valid('query'));
    const { rows, total } = await services.ips.page(c.get('principal').user.id, p.window);
    setPageHeaders(c, total, p);
    let body = serialized.get(rows);
    if (body === undefined) {
      body = JSON.stringify(rows);
      serialized.set(rows, body);
    }
    return c.body(body, 200, { 'Content-Type': 'application/json' }) as never;
  });
}
