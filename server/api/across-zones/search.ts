/**
 * Work across zones: the search over every zone the credential may read, a bulk
 * change of what it finds as a batch, and batches (one, and its revert).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { toFqdn } from '../../core/domain-name';
import { Forbidden, NotFound } from '../../core/errors';
import type { Services } from '../../services';
import type { ApiEnv } from '../auth';
import type { Context } from 'hono';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { BatchResultSchema, BatchSchema, BulkChangeSchema, FoundRecordSchema, SearchQuerySchema } from './template-schemas';
import { RevertSchema } from '../zones/schemas';
import { batchAnswer } from './templates';
import { changeView, writeOptions, writeQuery } from '../zones/write-options';

const tags = ['Across zones'];
const batchParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: '0b7c…' }) });
const batchId = (raw: string) => {
  if (!/^[0-9a-f-]{36}$/.test(raw)) throw new NotFound(`no batch ${raw.slice(0, 64)}`);
  return raw;
};

const search = createRoute({
  method: 'get',
  path: '/records',
  summary: 'Search the records of every zone you may read',
  description: 'Filters by full name, type and content, each exact, prefix or substring (`match`); an A/AAAA content may be a network (CIDR). Hits come by zone, name and type, each with its zone.',
  tags,
  security,
  request: { query: z.object({ ...pageQuery, ...SearchQuerySchema }) },
  responses: { 200: { description: 'Records found', headers: pageHeaders, content: json(z.array(FoundRecordSchema)) }, ...errors(400) },
});

const bulk = createRoute({
  method: 'post',
  path: '/records/bulk',
  summary: 'Replace the content of, or delete, every record a search finds: one change set per zone under one batch',
  description: 'With ?dry_run=true: per zone, the change set that would be applied, nothing changed. Any zone that would fail fails the whole batch before anything is written.',
  tags,
  security,
  request: { query: z.object(writeQuery), body: { required: true, content: json(BulkChangeSchema) } },
  responses: { 200: { description: 'The batch', content: json(BatchResultSchema) }, ...errors(400, 404, 408, 409, 412, 413) },
});

const getBatch = createRoute({
  method: 'get',
  path: '/batches/{id}',
  summary: 'The change sets of a batch, by zone',
  tags,
  security,
  request: { params: batchParam },
  responses: { 200: { description: 'The batch', content: json(BatchSchema) }, ...errors(404) },
});

const revertBatch = createRoute({
  method: 'post',
  path: '/batches/{id}/revert',
  summary: 'Revert every change set of a batch, as a new batch',
  description: 'If any zone changed since at the records the batch touched, 409 names those zones (fields: zone → what changed) and nothing is applied.',
  tags,
  security,
  request: { params: batchParam, query: z.object(writeQuery), body: { required: false, content: json(RevertSchema) } },
  responses: { 200: { description: 'The new batch (null id for a dry run)', content: json(BatchResultSchema) }, ...errors(400, 404, 409) },
});

export function searchApi(services: Services) {
  const { recordSearch, batches } = services;
  const asker = (c: Context<ApiEnv>) => ({ userId: c.get('principal').user.id, scope: c.get('principal').scope });
  return createApi()
    .endpoint(search, async (c) => {
      const q = c.req.valid('query');
      const p = pageParams(q);
      const allAccounts = q.accounts === 'all';
      if (allAccounts && !c.get('principal').user.is_admin) throw new Forbidden("only an administrator may search every account's zones");
      const page = await recordSearch.search({ ...asker(c), allAccounts }, { ...q, zones: q.zone ? [q.zone] : undefined }, p.window);
      setPageHeaders(c, page.total, p);
      return c.json(
        page.rows.map((r) => {
          const hit = { id: r.id, zone: r.zone, name: r.name, fqdn: toFqdn(r.name, r.zone), record_type: r.record_type, content: r.content, ttl: String(r.ttl) };
          return r.disabled ? { ...hit, disabled: true as const } : hit;
        }),
        200,
      );
    })
    .endpoint(bulk, async (c) => {
      const body = c.req.valid('json');
      const result = await recordSearch.bulk(asker(c), body, { ...writeOptions(c, body.comment), signal: c.req.raw.signal });
      return batchAnswer(c, result);
    })
    .endpoint(getBatch, async (c) => {
      const id = batchId(c.req.valid('param').id);
      const { userId, scope } = asker(c);
      const zones = await batches.get(userId, scope, id);
      return c.json({ id, zones: zones.map((z) => ({ zone: z.zone, change: changeView(z.change) })) }, 200);
    })
    .endpoint(revertBatch, async (c) => {
      const id = batchId(c.req.valid('param').id);
      const body = c.req.header('content-type') ? c.req.valid('json') : {};
      const { userId, scope } = asker(c);
      const result = await batches.revert(userId, scope, id, { ...writeOptions(c, body.comment), signal: c.req.raw.signal });
      return batchAnswer(c, result);
    });
}
