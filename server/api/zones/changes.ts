/**
 * A zone's history and its bulk writes: the change sets, newest first; one
 * change set; reverting one; and PATCH of many RRsets as one change set.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { SOURCES } from '../../services/changes/change-sets';
import { createApi, errors, json, security } from '../create-api';
import { pathZone } from './scope';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { ChangeSetSchema, RevertSchema, RRsetPatchSchema } from './schemas';
import { changeView, writeAnswer, writeHeaders, writeOptions, writeQuery } from './write-options';
import { idParam, pathId } from '../path-id';

const tags = ['History'];
const zoneName = z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'example.com' });
const zoneOnly = z.object({ name: zoneName });
const zoneAndId = z.object({ name: zoneName, id: idParam });

const changeId = (raw: string) => pathId(raw, 'change');

const list = createRoute({
  method: 'get',
  path: '/domains/{name}/changes',
  summary: "A zone's change sets, newest first",
  tags,
  security,
  request: {
    params: zoneOnly,
    query: z.object({
      ...pageQuery,
      source: z
        .enum(SOURCES, { error: `must be one of ${SOURCES.join(', ')}` })
        .optional()
        .openapi({ description: 'Only change sets from this source' }),
      username: z.string().max(64).optional().openapi({ description: 'Only change sets made by this user' }),
    }),
  },
  responses: { 200: { description: 'Change sets, newest first', headers: pageHeaders, content: json(z.array(ChangeSetSchema)) }, ...errors(400, 404) },
});

const get = createRoute({
  method: 'get',
  path: '/domains/{name}/changes/{id}',
  summary: 'One change set, with every record it added and removed',
  tags,
  security,
  request: { params: zoneAndId },
  responses: { 200: { description: 'The change set', content: json(ChangeSetSchema) }, ...errors(404) },
});

const revert = createRoute({
  method: 'post',
  path: '/domains/{name}/changes/{id}/revert',
  summary: 'Revert a change set by applying its inverse as a new one',
  description: 'If a record or setting it touched has changed since, 409 names them and nothing is applied.',
  tags,
  security,
  request: { params: zoneAndId, query: z.object(writeQuery), headers: writeHeaders, body: { required: false, content: json(RevertSchema) } },
  responses: { 200: { description: 'The new change set (id null for a dry run)', content: json(ChangeSetSchema) }, ...errors(400, 404, 409, 412) },
});

const patch = createRoute({
  method: 'patch',
  path: '/domains/{name}/rrsets',
  summary: 'Change many RRsets at once: all or nothing, one change set',
  description:
    'REPLACE sets the RRset to exactly `records` (empty: deletes it); DELETE removes it; ADD adds records and keeps the rest; REMOVE removes the listed ones. ' +
    'The zone must be valid as a whole afterwards (a CNAME may replace an A set at one name). A bad entry answers 400 with `fields` keyed by position, e.g. `rrsets.1.records.0`.',
  tags,
  security,
  request: { params: zoneOnly, query: z.object(writeQuery), headers: writeHeaders, body: { required: true, content: json(RRsetPatchSchema) } },
  responses: { 200: { description: 'The change set (id null for a dry run or when nothing changed)', content: json(ChangeSetSchema) }, ...errors(400, 403, 404, 408, 409, 412, 413) },
});

export function changesApi(services: Services) {
  const { changes, rrsets } = services;
  const user = (c: { get(k: 'principal'): { user: { id: number } } }) => c.get('principal').user.id;
  return createApi()
    .endpoint(list, async (c) => {
      const q = c.req.valid('query');
      const p = pageParams(q);
      const zone = pathZone(c).zone;
      const page = await changes.page(zone, { source: q.source, username: q.username?.trim().toLowerCase() }, p.window);
      setPageHeaders(c, page.total, p);
      return c.json(
        page.rows.map((cs) => changeView(cs)),
        200,
      );
    })
    .endpoint(get, async (c) => {
      const { id } = c.req.valid('param');
      const zone = pathZone(c).zone;
      return c.json(changeView(await changes.get(zone, changeId(id))), 200);
    })
    .endpoint(revert, async (c) => {
      const { id } = c.req.valid('param');
      // The body is optional: a bare POST reverts with the default comment.
      const body = c.req.header('content-type') ? c.req.valid('json') : {};
      const opts = writeOptions(c, body.comment);
      const applied = await changes.revert(pathZone(c).zone, changeId(id), opts);
      return writeAnswer(c, opts, applied, (a) => changeView(a.change));
    })
    .endpoint(patch, async (c) => {
      const body = c.req.valid('json');
      // With the request's signal: a bulk PATCH stops, writing nothing, when its client goes away.
      const opts = { ...writeOptions(c, body.comment), signal: c.req.raw.signal };
      // DELETE takes the RRset's comment along (as PowerDNS's DELETE does) unless the entry names one.
      const list = body.rrsets.map((rs) => (rs.changetype === 'DELETE' && rs.comment === undefined ? { ...rs, comment: null } : rs));
      const applied = await rrsets.patch(user(c), pathZone(c), list, opts);
      return writeAnswer(c, opts, applied, (a) => changeView(a.change));
    });
}
