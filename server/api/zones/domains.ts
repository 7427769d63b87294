/**
 * Domains: list, create (201), get, partial update, delete.
 * `PUT /domains/:name.json` is the same operation as `PUT /domains/:name`.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import type { DomainRow } from '../../store/types';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { ChangeSetSchema, DomainCreateSchema, DomainSchema, DomainUpdateSchema } from './schemas';
import { asFileErrors, fileBuilder } from '../../services/zones/zone-files';
import { normalizeZoneName } from '../../core/domain-name';
import { SOA_DEFAULTS } from '../../core/soa';
import { Invalid } from '../../core/errors';

/** The zone name as it would be stored, or null when it is not one (the create then says why). */
function validZoneName(name: string): string | null {
  try {
    return normalizeZoneName(name);
  } catch {
    return null;
  }
}
import { etag, writeAnswer, writeHeaders, writeOptions, writeQuery } from './write-options';
import { domainView } from './views';
import { pathZone } from './scope';
import { auditActor } from '../../http/audit-actor';

const nameParam = z.object({
  name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'example.com', description: 'Domain name; a trailing ".json" is accepted' }),
});

const tags = ['Domains'];

const list = createRoute({
  method: 'get',
  path: '/domains',
  summary: "List the current user's domains",
  tags,
  security,
  request: { query: z.object({ ...pageQuery, search: z.string().max(253).optional().openapi({ description: 'Only names containing this text' }) }) },
  responses: { 200: { description: 'Domains, by name', headers: pageHeaders, content: json(z.array(DomainSchema)) }, ...errors(400) },
});

const create = createRoute({
  method: 'post',
  path: '/domains',
  summary: 'Create a zone, with SOA defaults and the apex NS set',
  tags,
  security,
  request: { body: { required: true, content: json(DomainCreateSchema) } },
  responses: { 201: { description: 'The new domain', content: json(DomainSchema) }, ...errors(400, 408, 409, 413) },
});

const get = createRoute({
  method: 'get',
  path: '/domains/{name}',
  summary: 'Get one domain',
  tags,
  security,
  request: { params: nameParam },
  responses: {
    200: { description: 'The domain; its serial is the ETag for If-Match', headers: z.object({ ETag: z.string().openapi({ example: '"2026112301"' }) }), content: json(DomainSchema) },
    ...errors(404),
  },
});

const update = createRoute({
  method: 'put',
  path: '/domains/{name}',
  summary: "Update SOA timers, DNSSEC and the zone's own transfers (only the fields sent)",
  tags,
  security,
  request: { params: nameParam, query: z.object(writeQuery), headers: writeHeaders, body: { required: true, content: json(DomainUpdateSchema) } },
  responses: {
    200: { description: 'The updated domain (with ?dry_run=true: the change set that would be applied)', content: json(z.union([DomainSchema, ChangeSetSchema])) },
    ...errors(400, 404, 408, 412, 413),
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/domains/{name}',
  summary: 'Delete a domain and all its records (kept HISTORY_DAYS days under /deleted-domains, restorable)',
  tags,
  security,
  request: { params: nameParam, headers: writeHeaders },
  responses: { 200: { description: 'The deleted domain', content: json(DomainSchema) }, ...errors(400, 404, 412) },
});

const retrieve = createRoute({
  method: 'post',
  path: '/domains/{name}/retrieve',
  summary: 'Check a secondary zone against its primaries now (and transfer what changed)',
  tags,
  security,
  request: { params: nameParam },
  responses: { 202: { description: 'The check is under way; the domain as it is now (see `transfer` for how it goes)', content: json(DomainSchema) }, ...errors(403, 404) },
});

export function domainsApi(services: Services) {
  const { zones, zoneFiles, teams, secondaries } = services;
  /** The domain view; a team's zone also names its team and the user's role in it (a user's own zone, as the interface specification shows it). */
  const withTeams = async (userId: number, rows: readonly DomainRow[]) => {
    const [keys, owners, transfers] = await Promise.all([zones.publicKeys(rows), teams.ofZones(userId, rows), secondaries.states(rows)]);
    return rows.map((d) => ({ ...domainView(d, keys.get(d.id), transfers.get(d.id)), ...owners.get(d.id) }));
  };
  const view = async (userId: number, zone: DomainRow) => (await withTeams(userId, [zone]))[0]!;
  return createApi()
    .endpoint(list, async (c) => {
      const q = c.req.valid('query');
      const p = pageParams(q);
      const { user, scope } = c.get('principal');
      // A token scoped to some zones lists only those.
      const { rows, total } = await zones.page(user.id, p.window, searchTerm(q.search), scope.zones?.length ? scope.zones : undefined);
      setPageHeaders(c, total, p);
      return c.json(await withTeams(user.id, rows), 200);
    })
    .endpoint(create, async (c) => {
      const { zone_file, template, variables, kind, primaries, tsig_key, ...input } = c.req.valid('json');
      if (kind !== 'secondary' && (primaries !== undefined || (tsig_key !== undefined && tsig_key !== null)))
        throw Invalid.field(primaries !== undefined ? 'primaries' : 'tsig_key', 'is for a secondary zone: give "kind": "secondary" too');
      if (kind === 'secondary' && (zone_file !== undefined || template !== undefined))
        throw Invalid.field(zone_file !== undefined ? 'zone_file' : 'template', 'a secondary zone takes its records from its primaries');
      const secondary = kind === 'secondary' ? { primaries: primaries ?? [], tsig_key } : undefined;
      if (template !== undefined && zone_file !== undefined) throw Invalid.field('template', 'give a template or a zone_file, not both');
      if (variables !== undefined && template === undefined) throw Invalid.field('variables', 'are the values of a template: give template too');
      // The file is read (bounded, in chunks) before the zone is made; a bad name is the create's to refuse.
      const origin = validZoneName(input.name);
      const file = zone_file === undefined || origin === null ? undefined : fileBuilder(await zoneFiles.read(zone_file, origin, input.minimum_ttl ?? SOA_DEFAULTS.minimum_ttl), 'merge');
      // A template's RRsets go into the same first change set.
      const fromTemplate = template === undefined ? undefined : await services.templates.forNewZone(c.get('principal').user.id, template, variables);
      // With the request's signal: a zone built from a big file or template is not made for a client that went away.
      const zone = await asFileErrors(() => zones.create(c.get('principal').user.id, { ...input, secondary }, { ...writeOptions(c), signal: c.req.raw.signal }, file?.build ?? fromTemplate));
      // A secondary is transferred at once, not at its first refresh timer.
      if (secondary) await secondaries.retrieve(c.get('principal').user.id, zone.name);
      return c.json(await view(c.get('principal').user.id, zone), 201);
    })
    .endpoint(get, async (c) => {
      const zone = pathZone(c).zone;
      c.header('ETag', etag(zone.serial_number));
      const heldBy = c.get('heldBy');
      // An administrator reading another account's zone: whose it is, and that it is theirs to read only.
      if (heldBy !== undefined) return c.json({ ...(await view(c.get('principal').user.id, zone)), role: 'viewer' as const, held_by: heldBy, administrator_view: true }, 200);
      return c.json(await view(c.get('principal').user.id, zone), 200);
    })
    .endpoint(update, async (c) => {
      const opts = writeOptions(c);
      const applied = await zones.update(c.get('principal').user.id, pathZone(c), c.req.valid('json'), opts);
      const body = opts.dryRun ? null : await view(c.get('principal').user.id, applied.zone);
      return writeAnswer(c, opts, applied, () => body);
    })
    .endpoint(retrieve, async (c) => {
      const { user, scope } = c.get('principal');
      const zone = await secondaries.retrieve(user.id, pathZone(c), scope);
      return c.json(await view(user.id, zone), 202);
    })
    .endpoint(remove, async (c) => {
      const { user, scope } = c.get('principal');
      const place = pathZone(c);
      const body = await view(user.id, place.zone);
      await zones.remove(user.id, place, writeOptions(c).ifMatch, scope, { actor: auditActor(c) });
      return c.json(body, 200);
    });
}

/**
 * The text a domain search looks for: names are stored in A-labels, so a search in Unicode
 * (`bücher`) looks for its A-label form (`xn--bcher-kva`), as the platform's URL parser spells it.
 */
function searchTerm(raw: string | undefined): string | undefined {
  const term = raw?.trim().toLowerCase();
  if (!term) return undefined;
  if (/^[\x00-\x7f]*$/.test(term)) return term;
  try {
    return new URL(`http://${term}/`).hostname;
  } catch {
    return term;
  }
}
