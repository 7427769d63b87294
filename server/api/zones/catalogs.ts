/**
 * Catalogs consumed (RFC 9432), an administrator's: follow a producer's catalog so that each of its
 * member zones becomes a secondary zone of a chosen owner; list them with how their last check went;
 * retrieve one now; stop following one (its members stay).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden } from '../../core/errors';
import { isRestricted } from '../../core/scope';
import type { Services } from '../../services';
import type { CatalogRow } from '../../store/types';
import type { ApiEnv } from '../auth';
import { createApi, errors, json, security } from '../create-api';

const tags = ['Catalogs'];
const timestamp = z.string().nullable();

const CatalogSchema = z
  .object({
    zone: z.string().openapi({ example: 'catalog.example' }),
    primaries: z.array(z.string()),
    tsig_key: z.string().nullable(),
    owner: z.string().openapi({ description: 'The user, or the team, its member zones belong to' }),
    created_at: z.string(),
    serial: z.number().int().nullable(),
    members: z.number().int().openapi({ description: 'Member zones the catalog listed at its last good check' }),
    last_check: timestamp,
    last_success: timestamp,
    error: z.string().nullable().openapi({ description: 'What went wrong at the last check (a member that could not be made, a primary that failed)' }),
    next_check: z.string(),
  })
  .openapi('Catalog');

const CatalogCreateSchema = z
  .strictObject({
    zone: z.string({ error: "must be the catalog zone's name" }).max(253).openapi({ example: 'catalog.example' }),
    primaries: z.array(z.string({ error: 'must be a list of host:port' }).max(64), { error: 'must be a list of host:port' }).max(10, 'at most 10 primaries'),
    tsig_key: z.string({ error: 'must be the name of a TSIG key of the owner' }).max(253).nullable().optional(),
    owner: z.string({ error: 'must be a username or a team name' }).min(1, 'must be a username or a team name').max(64),
  })
  .openapi('CatalogCreate');

const zoneParam = z.object({
  zone: z
    .string()
    .max(254)
    .openapi({ param: { name: 'zone', in: 'path' }, example: 'catalog.example' }),
});

const list = createRoute({
  method: 'get',
  path: '/catalogs',
  summary: 'List the catalogs followed (administrators)',
  tags,
  security,
  responses: { 200: { description: 'Catalogs by name', content: json(z.array(CatalogSchema)) }, ...errors(403) },
});
const create = createRoute({
  method: 'post',
  path: '/catalogs',
  summary: "Follow a producer's catalog: its member zones become secondary zones of the owner (administrators)",
  tags,
  security,
  request: { body: { required: true, content: json(CatalogCreateSchema) } },
  responses: { 201: { description: 'The catalog; its first transfer is under way', content: json(CatalogSchema) }, ...errors(400, 403, 409) },
});
const retrieve = createRoute({
  method: 'post',
  path: '/catalogs/{zone}/retrieve',
  summary: 'Check a catalog against its primaries now (administrators)',
  tags,
  security,
  request: { params: zoneParam },
  responses: { 202: { description: 'The check is under way', content: json(CatalogSchema) }, ...errors(403, 404) },
});
const remove = createRoute({
  method: 'delete',
  path: '/catalogs/{zone}',
  summary: 'Stop following a catalog; its member zones stay as secondary zones (administrators)',
  tags,
  security,
  request: { params: zoneParam },
  responses: { 204: { description: 'No longer followed' }, ...errors(403, 404) },
});

export function catalogsApi(services: Services) {
  const { catalogs, store } = services;
  /** The request's user, an administrator with a credential without a scope. */
  const admin = (c: Context<ApiEnv>) => {
    const { user, scope } = c.get('principal');
    if (isRestricted(scope)) throw new Forbidden('a token with a scope cannot manage catalogs');
    return user;
  };
  const view = async (row: CatalogRow) => {
    const owner = row.team_id !== null ? (await store.teams.byId(row.team_id))?.name : (await store.users.byId(row.user_id))?.username;
    const { id: _id, user_id: _u, team_id: _t, ...rest } = row;
    return { ...rest, owner: owner ?? '' };
  };
  return createApi()
    .endpoint(list, async (c) => c.json(await Promise.all((await catalogs.list(admin(c))).map(view)), 200))
    .endpoint(create, async (c) => c.json(await view(await catalogs.add(admin(c), c.req.valid('json'))), 201))
    .endpoint(retrieve, async (c) => c.json(await view(await catalogs.retrieve(admin(c), c.req.valid('param').zone)), 202))
    .endpoint(remove, async (c) => {
      await catalogs.remove(admin(c), c.req.valid('param').zone);
      return c.body(null, 204);
    });
}
