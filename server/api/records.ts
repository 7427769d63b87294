/**
 * Records of a domain (SPEC.md §2.2, §4.2): create (200, with id and fqdn), list with
 * filters, get, partial update, delete.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { NotFound } from '../core/errors';
import type { Services } from '../services';
import { createApi, errors, json, security } from './create-api';
import { zoneParam } from './domains';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from './pagination';
import { RecordCreateSchema, RecordSchema, RecordUpdateSchema } from './schemas';
import { recordView } from './views';

const tags = ['Records'];
const zoneName = z.string().openapi({ param: { name: 'domain_name', in: 'path' }, example: 'example.com' });
const zoneOnly = z.object({ domain_name: zoneName });
const zoneAndId = z.object({
  domain_name: zoneName,
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: '42' }),
});

function recordId(raw: string): number {
  if (!/^[0-9]{1,15}$/.test(raw)) throw new NotFound(`no record with id ${raw}`);
  return Number(raw);
}

const list = createRoute({
  method: 'get',
  path: '/domains/{domain_name}/records',
  summary: 'List the records of a domain',
  tags,
  security,
  request: {
    params: zoneOnly,
    query: z.object({
      ...pageQuery,
      name: z.string().optional().openapi({ description: 'Only records at this name ("@" for the apex)' }),
      record_type: z.string().optional().openapi({ description: 'Only records of this type' }),
    }),
  },
  responses: { 200: { description: 'Records, by name and type', headers: pageHeaders, content: json(z.array(RecordSchema)) }, ...errors(400, 404) },
});

const create = createRoute({
  method: 'post',
  path: '/domains/{domain_name}/records',
  summary: 'Create a record in a domain',
  tags,
  security,
  request: { params: zoneOnly, body: { required: true, content: json(RecordCreateSchema) } },
  responses: { 200: { description: 'The created record', content: json(RecordSchema) }, ...errors(400, 404, 408, 409, 413) },
});

const get = createRoute({
  method: 'get',
  path: '/domains/{domain_name}/records/{id}',
  summary: 'Get one record',
  tags,
  security,
  request: { params: zoneAndId },
  responses: { 200: { description: 'The record', content: json(RecordSchema) }, ...errors(404) },
});

const update = createRoute({
  method: 'put',
  path: '/domains/{domain_name}/records/{id}',
  summary: "Update a record (only the fields sent); a ttl applies to the record's whole RRset",
  tags,
  security,
  request: { params: zoneAndId, body: { required: true, content: json(RecordUpdateSchema) } },
  responses: { 200: { description: 'The updated record', content: json(RecordSchema) }, ...errors(400, 403, 404, 408, 409, 413) },
});

const remove = createRoute({
  method: 'delete',
  path: '/domains/{domain_name}/records/{id}',
  summary: 'Delete a record',
  tags,
  security,
  request: { params: zoneAndId },
  responses: { 200: { description: 'The deleted record', content: json(RecordSchema) }, ...errors(403, 404) },
});

export function recordsApi(services: Services) {
  const { records } = services;
  const user = (c: { get(k: 'principal'): { user: { id: number } } }) => c.get('principal').user.id;
  return createApi()
    .openapi(list, async (c) => {
      const q = c.req.valid('query');
      const p = pageParams(q);
      const { zone, base, page } = await records.page(user(c), zoneParam(c.req.valid('param').domain_name), { name: q.name, record_type: q.record_type }, p.window);
      setPageHeaders(c, page.total, p);
      return c.json(page.rows.map((r) => recordView(zone, r, base)), 200);
    })
    .openapi(create, async (c) => {
      const { zone, base, record } = await records.create(user(c), zoneParam(c.req.valid('param').domain_name), c.req.valid('json'));
      return c.json(recordView(zone, record, base), 200);
    })
    .openapi(get, async (c) => {
      const { domain_name, id } = c.req.valid('param');
      const { zone, base, record } = await records.get(user(c), zoneParam(domain_name), recordId(id));
      return c.json(recordView(zone, record, base), 200);
    })
    .openapi(update, async (c) => {
      const { domain_name, id } = c.req.valid('param');
      const { zone, base, record } = await records.update(user(c), zoneParam(domain_name), recordId(id), c.req.valid('json'));
      return c.json(recordView(zone, record, base), 200);
    })
    .openapi(remove, async (c) => {
      const { domain_name, id } = c.req.valid('param');
      const { zone, base, record } = await records.remove(user(c), zoneParam(domain_name), recordId(id));
      return c.json(recordView(zone, record, base), 200);
    });
}
