/**
 * A user's IP ranges, for administrators (the Users page): `GET|POST /users/{username}/ips` and
 * `DELETE /users/{username}/ips/{id}`, the CLI's `ips list|add|remove` over HTTP, with its rules (a
 * bad address or CIDR is a 400 naming `address`). A token with a scope may list them but change
 * none; every change is in the audit log.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Forbidden } from '../../core/errors';
import { isRestricted } from '../../core/scope';
import type { Services } from '../../services';
import { auditActor } from '../../http/audit-actor';
import type { ApiEnv } from '../auth';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { idParam, pathId } from '../path-id';
import { IpSchema } from '../zones/schemas';

const tags = ['Users'];
const username = z.string().openapi({ param: { name: 'username', in: 'path' }, example: 'alice' });

const IpAddSchema = z
  .strictObject({
    address: z
      .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
      .max(64, 'must be at most 64 characters')
      .openapi({ example: '198.51.100.0/24', description: 'An address, or a network in CIDR notation' }),
    active: z.boolean({ error: 'must be true or false' }).optional().openapi({ description: 'Default true' }),
  })
  .openapi('IpAdd');

const list = createRoute({
  method: 'get',
  path: '/users/{username}/ips',
  summary: "A user's registered IP addresses and ranges (administrators only)",
  tags,
  security,
  request: { params: z.object({ username }), query: z.object(pageQuery) },
  responses: { 200: { description: 'IP records', headers: pageHeaders, content: json(z.array(IpSchema)) }, ...errors(400, 403, 404) },
});

const add = createRoute({
  method: 'post',
  path: '/users/{username}/ips',
  summary: 'Register an IP address or range to a user (administrators only; audited)',
  tags,
  security,
  request: { params: z.object({ username }), body: { required: true, content: json(IpAddSchema) } },
  responses: { 201: { description: 'The IP record', content: json(IpSchema) }, ...errors(400, 403, 404, 409) },
});

const remove = createRoute({
  method: 'delete',
  path: '/users/{username}/ips/{id}',
  summary: "Remove one of a user's IP records (administrators only; audited)",
  tags,
  security,
  request: { params: z.object({ username, id: idParam }) },
  responses: { 204: { description: 'Removed' }, ...errors(403, 404) },
});

export function userIpsApi(services: Services) {
  const { users, userIps } = services;

  /** Changes need an administrator's credential without a scope, as every other act on a user. */
  function adminWrite(c: Context<ApiEnv>): void {
    const { user, scope } = c.get('principal');
    users.requireAdmin(user);
    if (isRestricted(scope)) throw new Forbidden("a token with a scope cannot change users' IP ranges");
  }

  return createApi()
    .endpoint(list, async (c) => {
      users.requireAdmin(c.get('principal').user);
      const p = pageParams(c.req.valid('query'));
      const { rows, total } = await userIps.page(c.req.valid('param').username, p.window);
      setPageHeaders(c, total, p);
      return c.json(rows, 200);
    })
    .endpoint(add, async (c) => {
      adminWrite(c);
      const { address, active } = c.req.valid('json');
      return c.json(await userIps.add(auditActor(c), c.req.valid('param').username, address, active ?? true), 201);
    })
    .endpoint(remove, async (c) => {
      adminWrite(c);
      const { username: name, id } = c.req.valid('param');
      await userIps.remove(auditActor(c), name, pathId(id, 'IP record'));
      return c.body(null, 204);
    });
}
