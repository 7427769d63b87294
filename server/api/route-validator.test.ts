/** The one-layer validator against what @hono/zod-openapi's own validators answer, on a route of its own. */
import { createRoute, z } from '@hono/zod-openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApi, json } from './create-api';
import { errorResponse } from './errors';

const route = createRoute({
  method: 'post',
  path: '/things/{id}',
  request: {
    params: z.object({ id: z.string().regex(/^\d+$/, 'must be digits') }),
    query: z.object({ mode: z.enum(['a', 'b']).optional() }),
    headers: z.object({ 'if-match': z.string().optional() }),
    body: { required: false, content: json(z.strictObject({ name: z.string().refine(async (s) => s !== 'taken', 'is taken') })) },
  },
  responses: { 200: { description: 'ok' } },
});

const handler = (c: { req: { valid(part: string): unknown }; json(body: unknown, status: 200): Response }) =>
  c.json({ param: c.req.valid('param'), query: c.req.valid('query'), header: c.req.valid('header'), json: c.req.valid('json') }, 200);
// The same route twice: through the one-layer validator (`endpoint`), and through the library's own validators.
const apps = { 'the one-layer validator': createApi().endpoint(route, handler as never), "@hono/zod-openapi's validators": createApi().openapi(route, handler as never) };
for (const app of Object.values(apps)) {
  app.onError((err, c) =>
    errorResponse(c, err, (e) => {
      throw e;
    }),
  );
}

let app: { request(path: string, init: RequestInit): Response | Promise<Response> };
const post = (path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) =>
  app.request(path, { method: 'POST', ...init, ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);

describe.each(Object.entries(apps))('%s', (_, which) => {
  beforeAll(() => {
    app = which;
  });

  it('hands on path, query, declared headers and body as validated', async () => {
    const res = await post('/things/7?mode=a', { body: '{"name":"x"}', headers: { 'content-type': 'application/json', 'If-Match': '"1"', 'x-other': 'y' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ param: { id: '7' }, query: { mode: 'a' }, header: { 'if-match': '"1"' }, json: { name: 'x' } });
  });

  it('names the first bad part, in the order query, path, body', async () => {
    const bad = async (path: string, body: string) => (await (await post(path, { body, headers: { 'content-type': 'application/json' } })).json()).error.fields;
    expect(await bad('/things/x?mode=c', '{"name":1}')).toEqual({ mode: expect.any(String) });
    expect(await bad('/things/x', '{"name":1}')).toEqual({ id: 'must be digits' });
    expect(await bad('/things/7', '{"name":1,"extra":2}')).toEqual({ name: expect.any(String), extra: 'is not a known field' });
  });

  it('runs asynchronous refinements', async () => {
    const res = await post('/things/7', { body: '{"name":"taken"}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.fields).toEqual({ name: 'is taken' });
  });

  it('takes an optional body as {} when none is sent, and refuses one sent without a content type', async () => {
    const none = await post('/things/7');
    expect(await none.json()).toMatchObject({ json: {} });
    const untyped = await post('/things/7', { body: new Blob(['{"name":"x"}']).stream() });
    expect(untyped.status).toBe(415);
    const other = await post('/things/7', { body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(other.status).toBe(415);
  });
});
