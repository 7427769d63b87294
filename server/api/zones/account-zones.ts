/**
 * `GET /admin/domains`: every account's zones, for administrators only (403 for anyone else):
 * who holds each, how big it is, its serial, signing and delegation. Opening one is the ordinary
 * `GET /domains/:name…`, which an administrator may read for any zone (scope.ts) and write for none
 * but their own.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Forbidden } from '../../core/errors';
import type { Services } from '../../services';
import { accountZones } from '../../services/zones/administrator-view';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';

export const AccountZoneSchema = z
  .object({
    name: z.string().openapi({ example: 'example.com' }),
    held_by: z.string().openapi({ description: 'The user who holds the zone (for a team zone, the member who made it)', example: 'alice' }),
    team: z.string().nullable().openapi({ description: 'The team that holds the zone, if one does' }),
    record_count: z.number().int().openapi({ description: 'Records in the zone, the SOA and apex NS included' }),
    serial_number: z.number().int(),
    dnssec_enabled: z.boolean(),
    delegation: z.enum(['unknown', 'delegated', 'not_delegated']),
    kind: z.enum(['primary', 'secondary']),
    updated_at: z.string(),
  })
  .openapi('AccountZone');

const list = createRoute({
  method: 'get',
  path: '/admin/domains',
  summary: "Every account's zones by name (administrators only)",
  tags: ['Administration'],
  security,
  request: {
    query: z.object({
      ...pageQuery,
      search: z
        .string()
        .max(253, 'must be at most 253 characters')
        .optional()
        .openapi({ param: { name: 'search', in: 'query' }, description: "Only zones whose name, user's name or team's name contains this" }),
    }),
  },
  responses: { 200: { description: 'Zones', headers: pageHeaders, content: json(z.array(AccountZoneSchema)) }, ...errors(400, 403) },
});

export function accountZonesApi(services: Services) {
  return createApi().endpoint(list, async (c) => {
    if (!c.get('principal').user.is_admin) throw new Forbidden("only an administrator may list every account's zones");
    const q = c.req.valid('query');
    const p = pageParams(q);
    const { rows, total } = await accountZones(services.store, p.window, q.search);
    setPageHeaders(c, total, p);
    return c.json(
      rows.map((z) => ({
        name: z.name,
        held_by: z.username,
        team: z.team_name,
        record_count: z.record_count,
        serial_number: z.serial_number,
        dnssec_enabled: z.dnssec_enabled,
        delegation: (z.delegation_checked ? (z.delegated ? 'delegated' : 'not_delegated') : 'unknown') as 'unknown' | 'delegated' | 'not_delegated',
        kind: z.kind ?? 'primary',
        updated_at: z.updated_at,
      })),
      200,
    );
  });
}
