/**
 * Records of a domain: create (200, with id and fqdn), list with
 * filters, get, partial update, delete.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { createApi, errors, json, security } from '../create-api';
import { pathZone } from './scope';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { ChangeSetSchema, RecordCreateSchema, RecordSchema, RecordUpdateSchema } from './schemas';
import { etag, writeAnswer, writeHeaders, writeOptions, writeQuery } from './write-options';
import { recordView } from './views';
import { idParam, pathId } from '../path-id';
import { commentAt } from '../../services/changes/record-comments';

const tags = ['Records'];
const zoneName = z.string().openapi({ param: { name: 'domain_name', in: 'path' }, example: 'example.com' });
const zoneOnly = z.object({ domain_name: zoneName });
const zoneAndId = z.object({
  domain_name: zoneName,
  id: idParam,
});

const recordId = (raw: string) => pathId(raw, 'record');

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
  request: { params: zoneOnly, query: z.object(writeQuery), headers: writeHeaders, body: { required: true, content: json(RecordCreateSchema) } },
  responses: {
    200: { description: 'The created record (with ?dry_run=true: the change set that would be applied)', content: json(z.union([RecordSchema, ChangeSetSchema])) },
    ...errors(400, 404, 408, 409, 412, 413),
  },
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
  request: { params: zoneAndId, query: z.object(writeQuery), headers: writeHeaders, body: { required: true, content: json(RecordUpdateSchema) } },
  responses: {
    200: { description: 'The updated record (with ?dry_run=true: the change set that would be applied)', content: json(z.union([RecordSchema, ChangeSetSchema])) },
    ...errors(400, 403, 404, 408, 409, 412, 413),
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/domains/{domain_name}/records/{id}',
  summary: 'Delete a record',
  tags,
  security,
  request: { params: zoneAndId, query: z.object(writeQuery), headers: writeHeaders },
  responses: {
    200: { description: 'The deleted record (with ?dry_run=true: the change set that would be applied)', content: json(z.union([RecordSchema, ChangeSetSchema])) },
    ...errors(400, 403, 404, 412),
  },
});

export function recordsApi(services: Services) {
  const { records } = services;
  const user = (c: { get(k: 'principal'): { user: { id: number } } }) => c.get('principal').user.id;
  return createApi()
    .endpoint(list, async (c) => {
      const q = c.req.valid('query');
      const p = pageParams(q);
      const { zone, base, page, comments } = await records.page(user(c), pathZone(c), { name: q.name, record_type: q.record_type }, p.window);
      setPageHeaders(c, page.total, p);
      // The serial read before the records: a write in between makes it older, never newer, so an
      // If-Match built on it can only give a needless 412, never overwrite unseen changes.
      c.header('ETag', etag(zone.serial_number));
      return c.json(
        page.rows.map((r) => recordView(zone, r, base, commentAt(comments, r))),
        200,
      );
    })
    .endpoint(create, async (c) => {
      const opts = writeOptions(c);
      const applied = await records.create(user(c), pathZone(c), c.req.valid('json'), opts);
      return writeAnswer(c, opts, applied, ({ zone, result }) => recordView(zone, result.record, result.base, result.comment));
    })
    .endpoint(get, async (c) => {
      const { id } = c.req.valid('param');
      const { zone, base, record, comment } = await records.get(user(c), pathZone(c), recordId(id));
      return c.json(recordView(zone, record, base, comment), 200);
    })
    .endpoint(update, async (c) => {
      const { id } = c.req.valid('param');
      const opts = writeOptions(c);
      const applied = await records.update(user(c), pathZone(c), recordId(id), c.req.valid('json'), opts);
      return writeAnswer(c, opts, applied, ({ zone, result }) => recordView(zone, result.record, result.base, result.comment));
    })
    .endpoint(remove, async (c) => {
      const { id } = c.req.valid('param');
      const opts = writeOptions(c);
      const applied = await records.remove(user(c), pathZone(c), recordId(id), opts);
      return writeAnswer(c, opts, applied, ({ zone, result }) => recordView(zone, result.record, result.base, result.comment));
    });
}
