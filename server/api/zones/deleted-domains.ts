/**
 * Deleted domains: a deleted zone is kept HISTORY_DAYS days with its records, keys
 * and history. `GET /deleted-domains` lists those the credential may restore (newest deletion
 * first, paginated like every list); `POST /deleted-domains/:id/restore` brings one back in one
 * step and answers the zone, as `GET /domains/:name` does.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { deletedZoneView } from '../../services/zones/deleted-zones';
import { auditActor } from '../../http/audit-actor';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { idParam, pathId } from '../path-id';
import { DomainSchema } from './schemas';
import { domainView } from './views';
import { writeOptions } from './write-options';

const tags = ['Deleted domains'];

export const DeletedDomainSchema = z
  .object({
    id: z.number().int().openapi({ example: 7 }),
    name: z.string().openapi({ example: 'example.com' }),
    deleted_at: z.string().openapi({ example: '2026-11-26T10:00:00.000Z' }),
    deleted_by: z.string().openapi({ example: 'alice', description: 'Who deleted it (username)' }),
    records: z.number().int().openapi({ example: 12, description: 'Records it held, disabled ones too' }),
    dnssec: z.boolean().openapi({ description: 'Whether it was signed; a restore brings back the same keys' }),
    expires_at: z.string().openapi({ example: '2027-11-26T10:00:00.000Z', description: 'Until when it can be restored (HISTORY_DAYS after the deletion)' }),
  })
  .openapi('DeletedDomain');

const list = createRoute({
  method: 'get',
  path: '/deleted-domains',
  summary: 'Deleted domains that can be restored, newest deletion first',
  tags,
  security,
  request: { query: z.object(pageQuery) },
  responses: {
    200: {
      description: 'Deleted domains the credential may restore',
      headers: pageHeaders.extend({ 'X-Restorable-Days': z.string().openapi({ description: 'How many days a deleted domain stays restorable (HISTORY_DAYS)' }) }),
      content: json(z.array(DeletedDomainSchema)),
    },
    ...errors(400),
  },
});

const restore = createRoute({
  method: 'post',
  path: '/deleted-domains/{id}/restore',
  summary: 'Restore a deleted domain: its records, SOA, DNSSEC keys, history and owner, with a new serial',
  description: 'Under the rules of a creation: 409 when a zone of that name (or one it would nest in or around) exists, 403 when the quota is reached.',
  tags,
  security,
  request: { params: z.object({ id: idParam }), body: { required: false, content: json(z.strictObject({}).openapi('Restore', { description: 'Nothing to send (an empty object at most)' })) } },
  responses: { 200: { description: 'The restored domain', content: json(DomainSchema) }, ...errors(400, 403, 404, 409) },
});

export function deletedDomainsApi(services: Services) {
  const { deletedZones, zones, teams } = services;
  return createApi()
    .endpoint(list, async (c) => {
      const p = pageParams(c.req.valid('query'));
      const { user, scope } = c.get('principal');
      const { rows, total } = await deletedZones.page(user.id, p.window, scope);
      setPageHeaders(c, total, p);
      c.header('X-Restorable-Days', String(deletedZones.days));
      return c.json(rows.map(deletedZoneView), 200);
    })
    .endpoint(restore, async (c) => {
      const id = pathId(c.req.valid('param').id, 'deleted zone');
      const { user } = c.get('principal');
      const zone = await deletedZones.restore(user.id, id, writeOptions(c), auditActor(c));
      const [keys, owners] = await Promise.all([zones.publicKeys([zone]), teams.ofZones(user.id, [zone])]);
      return c.json({ ...domainView(zone, keys.get(zone.id)), ...owners.get(zone.id) }, 200);
    });
}
