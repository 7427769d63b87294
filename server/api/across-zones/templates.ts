/**
 * Templates: list, create (from RRsets or from a zone), get, update, delete;
 * apply to zones as a batch (`?dry_run=true` previews it per zone); the zones that came from a
 * template and how each has drifted from it; a zone's template (`GET /domains/{name}/template`).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { slicer } from '../../core/pause';
import { placeholders } from '../../core/template-render';
import type { Services } from '../../services';
import type { BatchResult } from '../../services/across-zones/batches';
import type { ChangeSet } from '../../services/changes/change-sets';
import type { TemplateRow } from '../../store/types/across-zones';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { idParam, pathId } from '../path-id';
import { BatchResultSchema, TemplateApplySchema, TemplateCreateSchema, TemplateSchema, TemplateUpdateSchema, TemplateZoneSchema, ZoneTemplateSchema } from './template-schemas';
import { changeView, writeOptions, writeQuery } from '../zones/write-options';
import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { ApiEnv } from '../auth';

const tags = ['Templates'];
const idOnly = z.object({ id: idParam });
const templateId = (raw: string) => pathId(raw, 'template');

const list = createRoute({
  method: 'get',
  path: '/templates',
  summary: 'Templates you may use: yours and your teams’',
  tags,
  security,
  request: { query: z.object(pageQuery) },
  responses: { 200: { description: 'Templates, by name', headers: pageHeaders, content: json(z.array(TemplateSchema)) }, ...errors(400) },
});
const create = createRoute({
  method: 'post',
  path: '/templates',
  summary: 'Create a template from RRsets, or from a zone',
  tags,
  security,
  request: { body: { required: true, content: json(TemplateCreateSchema) } },
  responses: { 201: { description: 'The new template', content: json(TemplateSchema) }, ...errors(400, 404, 408, 409, 413) },
});
const get = createRoute({
  method: 'get',
  path: '/templates/{id}',
  summary: 'One template',
  tags,
  security,
  request: { params: idOnly },
  responses: { 200: { description: 'The template', content: json(TemplateSchema) }, ...errors(404) },
});
const update = createRoute({
  method: 'put',
  path: '/templates/{id}',
  summary: 'Change a template (the fields sent); zones made from it change only when it is applied again',
  tags,
  security,
  request: { params: idOnly, body: { required: true, content: json(TemplateUpdateSchema) } },
  responses: { 200: { description: 'The template', content: json(TemplateSchema) }, ...errors(400, 404, 408, 409, 413) },
});
const remove = createRoute({
  method: 'delete',
  path: '/templates/{id}',
  summary: 'Delete a template (its zones keep their records)',
  tags,
  security,
  request: { params: idOnly },
  responses: { 200: { description: 'The deleted template', content: json(TemplateSchema) }, ...errors(404) },
});
const apply = createRoute({
  method: 'post',
  path: '/templates/{id}/apply',
  summary: 'Apply a template to zones: one change set per zone under one batch',
  description:
    'With ?dry_run=true: per zone, the RRsets it would add, replace or remove, and the change set, nothing changed. Any zone that would fail fails the whole batch before anything is written.',
  tags,
  security,
  request: { params: idOnly, query: z.object(writeQuery), body: { required: true, content: json(TemplateApplySchema) } },
  responses: { 200: { description: 'The batch', content: json(BatchResultSchema) }, ...errors(400, 404, 408, 409, 412, 413) },
});
const zonesOf = createRoute({
  method: 'get',
  path: '/templates/{id}/zones',
  summary: 'The zones made from (or last applied) this template, and which have drifted from it',
  tags,
  security,
  request: { params: idOnly },
  responses: { 200: { description: 'Zones, by name', content: json(z.array(TemplateZoneSchema)) }, ...errors(404) },
});

const zoneTemplate = createRoute({
  method: 'get',
  path: '/domains/{name}/template',
  summary: 'The template the zone came from (or had applied last), and whether the zone has drifted from it',
  tags,
  security,
  request: {
    params: z.object({
      name: z
        .string()
        .max(300)
        .openapi({ param: { name: 'name', in: 'path' }, example: 'example.com' }),
    }),
  },
  responses: { 200: { description: 'The template and the zone’s drift', content: json(ZoneTemplateSchema) }, ...errors(404) },
});

type RRsetAction = { name: string; record_type: string; action: 'add' | 'replace' | 'remove' };

/** Per RRset of a change set: added, replaced or removed. */
export function rrsetActions(change: ChangeSet): RRsetAction[] {
  const out: RRsetAction[] = [];
  const steps = actions(change, out);
  while (!steps.next().done);
  return out;
}

/** The same, letting the event loop turn (`step`) every thousand records. */
async function rrsetActionsSliced(change: ChangeSet, step: () => Promise<void>): Promise<RRsetAction[]> {
  const out: RRsetAction[] = [];
  for (const steps = actions(change, out); !steps.next().done;) await step();
  return out;
}

function* actions(change: ChangeSet, out: RRsetAction[]): Generator<void> {
  type Rec = ChangeSet['added'][number];
  const key = (r: Rec) => `${r.name} ${r.record_type}`;
  const added = new Map<string, Rec>();
  const removed = new Map<string, Rec>();
  let n = 0;
  const tick = () => ++n % 1000 === 0;
  for (const r of change.added) {
    added.set(key(r), r);
    if (tick()) yield;
  }
  for (const r of change.removed) {
    removed.set(key(r), r);
    if (tick()) yield;
  }
  for (const [k, r] of added) {
    out.push({ name: r.name, record_type: r.record_type, action: removed.has(k) ? 'replace' : 'add' });
    if (tick()) yield;
  }
  for (const [k, r] of removed) {
    if (!added.has(k)) out.push({ name: r.name, record_type: r.record_type, action: 'remove' });
    if (tick()) yield;
  }
}

export const batchView = (b: BatchResult) => ({ batch: b.batch, zones: b.zones.map(({ zone, change }) => ({ zone, rrsets: rrsetActions(change), change: changeView(change) })) });

/** Records per piece of a batch's JSON answer. */
const JSON_PIECE = 2000;

/**
 * A batch's answer, `batchView` as JSON text, written a few thousand records at a time with the
 * event loop turning between pieces: the largest apply answers some 15 MB, whose making in one
 * go would hold every other request for a few hundred milliseconds.
 */
export async function batchJson(b: BatchResult): Promise<string> {
  const slice = slicer();
  const parts = [`{"batch":${JSON.stringify(b.batch)},"zones":[`];
  for (const [i, { zone, change }] of b.zones.entries()) {
    await slice();
    const { added, removed, ...rest } = changeView({ ...change, added: [], removed: [], added_count: change.added.length, removed_count: change.removed.length });
    (void added, void removed);
    const rrsets = await rrsetActionsSliced(change, slice);
    await slice();
    parts.push(`${i > 0 ? ',' : ''}{"zone":${JSON.stringify(zone)},"rrsets":${JSON.stringify(rrsets)},"change":${JSON.stringify(rest).slice(0, -1)}`);
    for (const side of ['added', 'removed'] as const) {
      parts.push(`,"${side}":[`);
      for (let k = 0; k < change[side].length; k += JSON_PIECE) {
        await slice();
        const piece = changeView({ ...change, added: change[side].slice(k, k + JSON_PIECE), removed: [] }).added;
        parts.push(`${k > 0 ? ',' : ''}${JSON.stringify(piece).slice(1, -1)}`);
      }
      parts.push(']');
    }
    parts.push('}}');
  }
  parts.push(']}');
  return parts.join('');
}

/** A batch's answer (see `batchJson`), typed as the JSON it is: `batchView`'s, as the routes' schema describes it. */
export const batchAnswer = async (c: Context, b: BatchResult) =>
  c.body(await batchJson(b), 200, { 'content-type': 'application/json' }) as unknown as TypedResponse<JSONParsed<ReturnType<typeof batchView>>, 200, 'json'>;

export function templatesApi(services: Services) {
  const { templates, store } = services;
  const asker = (c: Context<ApiEnv>) => ({ userId: c.get('principal').user.id, scope: c.get('principal').scope });
  const views = async (rows: readonly TemplateRow[]) => {
    const teams = new Map<number, string>();
    for (const id of new Set(rows.map((t) => t.team_id).filter((id): id is number => id != null))) teams.set(id, (await store.teams.byId(id))?.name ?? '');
    return rows.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      team: t.team_id != null ? (teams.get(t.team_id) ?? null) : null,
      rrsets: t.rrsets.map((r) => ({ ...r, ttl: String(r.ttl) })),
      variables: [...new Set(t.rrsets.flatMap((r) => [r.name, ...r.records].flatMap(placeholders)))].sort(),
      created_at: t.created_at,
      updated_at: t.updated_at,
    }));
  };
  const view = async (t: TemplateRow) => (await views([t]))[0]!;
  return createApi()
    .endpoint(list, async (c) => {
      const p = pageParams(c.req.valid('query'));
      const { rows, total } = await templates.page(c.get('principal').user.id, p.window);
      setPageHeaders(c, total, p);
      return c.json(await views(rows), 200);
    })
    .endpoint(create, async (c) => c.json(await view(await templates.create(asker(c), c.req.valid('json'))), 201))
    .endpoint(get, async (c) => c.json(await view(await templates.visible(c.get('principal').user.id, templateId(c.req.valid('param').id))), 200))
    .endpoint(update, async (c) => c.json(await view(await templates.update(asker(c), templateId(c.req.valid('param').id), c.req.valid('json'))), 200))
    .endpoint(remove, async (c) => c.json(await view(await templates.remove(asker(c), templateId(c.req.valid('param').id))), 200))
    .endpoint(apply, async (c) => {
      const body = c.req.valid('json');
      // The request's signal: a client that goes away stops the apply, and nothing is written.
      const result = await templates.apply(asker(c), templateId(c.req.valid('param').id), body, { ...writeOptions(c, body.comment), signal: c.req.raw.signal });
      return batchAnswer(c, result);
    })
    .endpoint(zonesOf, async (c) => c.json(await templates.zones(asker(c), templateId(c.req.valid('param').id)), 200))
    .endpoint(zoneTemplate, async (c) => c.json(await templates.ofZone(asker(c), c.req.valid('param').name), 200));
}
