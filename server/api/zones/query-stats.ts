/**
 * A zone's query statistics: counts per step, and the most asked names. The zone
 * is resolved and access-checked before these handlers (`pathZone`); every role of a team reads.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { STAT_FIELDS, TOP_KINDS, type StatField } from '../../core/query-stats-fields';
import type { Services } from '../../services';
import { zoneSeries, zoneTop } from '../../services/analytics/query-stats';
import { createApi, errors, json, security } from '../create-api';
import { pathZone } from './scope';

const tags = ['Statistics'];
const params = z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'example.com' }) });
const time = (what: string) =>
  z
    .string()
    .max(40)
    .optional()
    .openapi({ description: `${what}, ISO 8601 (2026-11-26T09:00:00Z)` });

const Counts = z.object(Object.fromEntries(STAT_FIELDS.map((f) => [f, z.number().int()])) as Record<StatField, z.ZodNumber>).openapi('QueryCounts', {
  description:
    'Answers counted: queries; by rcode noerror, nxdomain, nodata (NOERROR without answers), refused, servfail, other_rcode; ' +
    'udp and tcp; dnssec_ok (DO bit set); truncated (TC); and by query type qtype_a … qtype_other.',
});

export const QuerySeriesSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    step: z.number().int().openapi({ description: 'Seconds per point' }),
    points: z.array(Counts.extend({ at: z.string().openapi({ description: 'Start of the step' }) })),
    totals: Counts,
  })
  .openapi('QuerySeries');

export const TopNamesSchema = z
  .object({
    kind: z.enum(TOP_KINDS),
    from: z.string(),
    to: z.string(),
    names: z.array(z.object({ name: z.string(), count: z.number().int() })),
  })
  .openapi('TopNames');

const series = createRoute({
  method: 'get',
  path: '/domains/{name}/stats',
  summary: "A zone's queries per step, by rcode, transport and query type",
  description:
    'Every node counted, summed. Minute counts are kept 48 hours, hourly counts STATS_DAYS days: a range reaching back further takes a step that is a multiple of 3600. ' +
    'Default: the last hour; the step defaults to the smallest of 60, 300, 900, 3600, 10800, 21600, 86400 giving at most 360 points.',
  tags,
  security,
  request: {
    params,
    query: z.object({
      from: time('Start (default: an hour before `to`)'),
      to: time('End (default: now)'),
      step: z
        .string()
        .regex(/^[1-9][0-9]{1,6}$/, { error: 'must be a whole number of seconds, a multiple of 60' })
        .transform(Number)
        .optional()
        .openapi({ type: 'string', description: 'Seconds per point, a multiple of 60 (at most 1,440 points)' }),
    }),
  },
  responses: { 200: { description: 'The counts per step', content: json(QuerySeriesSchema) }, ...errors(400, 404) },
});

const top = createRoute({
  method: 'get',
  path: '/domains/{name}/stats/top',
  summary: "A zone's most asked names, or most asked names that do not exist",
  description: 'Counted in whole hours by a bounded top-k sketch per zone: a name asked more than a small share of the queries is always listed; counts never overstate.',
  tags,
  security,
  request: {
    params,
    query: z.object({
      kind: z.enum(TOP_KINDS, { error: 'must be names or nxdomain' }).default('names'),
      from: time('Start (default: 24 hours before `to`)'),
      to: time('End (default: now)'),
      limit: z
        .string()
        .regex(/^([1-9][0-9]?|100)$/, { error: 'must be a whole number from 1 to 100' })
        .transform(Number)
        .optional()
        .openapi({ type: 'string', description: 'Names listed (default 20, at most 100)' }),
    }),
  },
  responses: { 200: { description: 'The names, most asked first', content: json(TopNamesSchema) }, ...errors(400, 404) },
});

export function queryStatsApi(services: Services) {
  const { store } = services;
  return createApi()
    .endpoint(series, async (c) => c.json(await zoneSeries(store, pathZone(c).zone.id, c.req.valid('query')), 200))
    .endpoint(top, async (c) => c.json(await zoneTop(store, pathZone(c).zone.id, c.req.valid('query')), 200));
}
