/**
 * Health-checked pools of a zone: a name whose A or AAAA set is its healthy members, chosen by a
 * policy. Every write is a change set (history, revert, dry run); the members' states come from
 * every node's checks (services/health/).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { CHECK_KINDS, MEMBER_STATES, POOL_FALLBACKS, POOL_POLICIES, POOL_TYPES } from '../../core/pools';
import type { Services } from '../../services';
import { createApi, errors, json, security } from '../create-api';
import { ChangeSetSchema } from './schemas';
import { pathZone } from './scope';
import { changeView, etag, writeHeaders, writeOptions, writeQuery } from './write-options';

const tags = ['Pools'];
const params = z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'example.com' }) });
const poolParams = params.extend({ pool: z.string().openapi({ param: { name: 'pool', in: 'path' }, description: "The pool's id, or its name (`www`, or `www/AAAA` when the name has two pools)" }) });

const whole = z.number().int('must be a whole number');

const MemberInput = z.strictObject({
  address: z.string({ error: 'must be an IP address' }),
  priority: whole.optional().openapi({ description: 'Failover serves the lowest priority with a healthy member (default 1)' }),
  weight: whole.optional().openapi({ description: 'Weighted answers pick members in proportion to it (default 1; 0: only when no other is healthy)' }),
});

const CheckInput = z.strictObject({
  kind: z.enum(CHECK_KINDS, { error: `must be one of ${CHECK_KINDS.join(', ')}` }).optional(),
  port: whole.optional().openapi({ description: 'Default 80 (http) or 443 (https); required for tcp' }),
  path: z.string().optional().openapi({ description: 'HTTP(S): the path asked for (default /)' }),
  host: z.string().nullable().optional().openapi({ description: "HTTP(S): the Host header and TLS name (default: the pool's own name)" }),
  expect_status: z.array(whole).optional().openapi({ description: 'HTTP(S): [lowest, highest] status that counts as healthy (default [200, 399])' }),
  expect_body: z.string().nullable().optional().openapi({ description: "HTTP(S): a text the body's first 64 KiB must contain" }),
  tls_verify: z.boolean({ error: 'must be true or false' }).optional().openapi({ description: "HTTPS: check the server's certificate (default true)" }),
  interval_s: whole.optional().openapi({ description: 'Seconds between two checks of a member by one node (default 10; at least HEALTH_MIN_INTERVAL_S)' }),
  timeout_ms: whole.optional().openapi({ description: 'One check may take this long (default 2000)' }),
  failures: whole.optional().openapi({ description: 'Failures in a row that take a member down (default 3)' }),
  successes: whole.optional().openapi({ description: 'Successes in a row that bring it back (default 2)' }),
});

const PoolInput = z
  .strictObject({
    name: z.string({ error: 'must be a name in the zone (@: the apex)' }).optional(),
    type: z.enum(POOL_TYPES, { error: 'must be A or AAAA' }).optional(),
    ttl: whole.optional().openapi({ description: "The answer's TTL (default 30)" }),
    policy: z.enum(POOL_POLICIES, { error: `must be one of ${POOL_POLICIES.join(', ')}` }).optional(),
    fallback: z.enum(POOL_FALLBACKS, { error: `must be one of ${POOL_FALLBACKS.join(', ')}` }).optional(),
    members: z.array(MemberInput, { error: 'must be a list of members' }).optional(),
    check: CheckInput.optional(),
  })
  .openapi('PoolInput');

const NodeResult = z.object({ node: z.string(), ok: z.boolean(), state: z.enum(MEMBER_STATES), detail: z.string(), checked_at: z.string() });

export const PoolSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    fqdn: z.string(),
    type: z.enum(POOL_TYPES),
    ttl: z.number().int(),
    policy: z.enum(POOL_POLICIES),
    fallback: z.enum(POOL_FALLBACKS),
    check: z.object({
      kind: z.enum(CHECK_KINDS),
      port: z.number().int(),
      path: z.string(),
      host: z.string().nullable(),
      expect_status: z.array(z.number().int()),
      expect_body: z.string().nullable(),
      tls_verify: z.boolean(),
      interval_s: z.number().int(),
      timeout_ms: z.number().int(),
      failures: z.number().int(),
      successes: z.number().int(),
    }),
    members: z.array(
      z.object({
        address: z.string(),
        priority: z.number().int(),
        weight: z.number().int(),
        state: z.enum(MEMBER_STATES).openapi({ description: 'As every node together judged it; unknown (not judged yet) is answered' }),
        since: z.string().nullable(),
        nodes: z.array(NodeResult).openapi({ description: "Each node's latest view of the member" }),
      }),
    ),
    answer: z.array(z.string()).openapi({ description: 'The addresses DNS answers now' }),
    transitions: z
      .array(z.object({ address: z.string(), from: z.enum(MEMBER_STATES), to: z.enum(MEMBER_STATES), at: z.string(), node: z.string() }))
      .openapi({ description: 'Changes of the members’ states, newest first' }),
    warnings: z.array(z.string()),
  })
  .openapi('Pool');

const list = createRoute({
  method: 'get',
  path: '/domains/{name}/pools',
  summary: "The zone's health-checked pools",
  tags,
  security,
  request: { params },
  responses: { 200: { description: 'Every pool', content: json(z.array(PoolSchema)) }, ...errors(404) },
});

const create = createRoute({
  method: 'post',
  path: '/domains/{name}/pools',
  summary: 'Make a pool: its name answers its healthy members (a change set)',
  tags,
  security,
  request: { params, query: z.object(writeQuery), headers: writeHeaders, body: { required: true, content: json(PoolInput) } },
  responses: {
    201: { description: 'The pool', content: json(PoolSchema) },
    200: { description: 'With ?dry_run=true: the change set that would be applied', content: json(ChangeSetSchema) },
    ...errors(400, 403, 404, 409, 412, 413),
  },
});

const get = createRoute({
  method: 'get',
  path: '/domains/{name}/pools/{pool}',
  summary: "A pool with its members' states, every node's results and the timeline",
  tags,
  security,
  request: { params: poolParams },
  responses: { 200: { description: 'The pool', content: json(PoolSchema) }, ...errors(404) },
});

const update = createRoute({
  method: 'put',
  path: '/domains/{name}/pools/{pool}',
  summary: 'Change a pool (the fields sent; name and type stay)',
  tags,
  security,
  request: { params: poolParams, query: z.object(writeQuery), headers: writeHeaders, body: { required: true, content: json(PoolInput) } },
  responses: {
    200: { description: 'The pool (with ?dry_run=true: the change set that would be applied)', content: json(z.union([PoolSchema, ChangeSetSchema])) },
    ...errors(400, 403, 404, 409, 412, 413),
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/domains/{name}/pools/{pool}',
  summary: 'Remove a pool and its addresses (a change set)',
  tags,
  security,
  request: { params: poolParams, query: z.object(writeQuery), headers: writeHeaders },
  responses: { 204: { description: 'Removed' }, 200: { description: 'With ?dry_run=true: the change set that would be applied', content: json(ChangeSetSchema) }, ...errors(403, 404, 412) },
});

export function poolsApi(services: Services) {
  const { pools } = services;
  return createApi()
    .endpoint(list, async (c) => c.json(await pools.list(pathZone(c).zone), 200))
    .endpoint(create, async (c) => {
      const opts = writeOptions(c);
      const applied = await pools.create(pathZone(c).zone, c.req.valid('json'), opts);
      c.header('ETag', etag(opts.dryRun ? applied.change.serial_before : applied.zone.serial_number));
      if (opts.dryRun) return c.json(changeView(applied.change) as never, 200);
      c.header('Location', `/api/v1/domains/${applied.zone.name}/pools/${applied.result.id}`);
      return c.json(applied.result as never, 201);
    })
    .endpoint(get, async (c) => c.json(await pools.get(pathZone(c).zone, c.req.valid('param').pool), 200))
    .endpoint(update, async (c) => {
      const opts = writeOptions(c);
      const applied = await pools.update(pathZone(c).zone, c.req.valid('param').pool, c.req.valid('json'), opts);
      c.header('ETag', etag(opts.dryRun ? applied.change.serial_before : applied.zone.serial_number));
      return c.json((opts.dryRun ? changeView(applied.change) : applied.result) as never, 200);
    })
    .endpoint(remove, async (c) => {
      const opts = writeOptions(c);
      const applied = await pools.remove(pathZone(c).zone, c.req.valid('param').pool, opts);
      c.header('ETag', etag(opts.dryRun ? applied.change.serial_before : applied.zone.serial_number));
      return opts.dryRun ? c.json(changeView(applied.change) as never, 200) : c.body(null, 204);
    });
}
