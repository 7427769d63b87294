/**
 * TSIG keys of the current user: list, create (the secret is in that one
 * response only), revoke by name. Another user's key answers 404, exactly as a missing one.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { tsigKeyDetail } from '../../services/identity/audit';
import { yArgument } from '../../services/identity/tsig-keys';
import type { TsigKeyRow } from '../../store/types';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { TsigKeyCreatedSchema, TsigKeyCreateSchema, TsigKeySchema } from '../zones/schemas';
import { auditActor } from '../../http/audit-actor';

const tags = ['TSIG keys'];

/** A key as its owner may see it: never the secret. */
export const tsigKeyView = (k: TsigKeyRow) => ({ name: k.name, algorithm: k.algorithm, scope: k.scope, created_at: k.created_at });

const list = createRoute({
  method: 'get',
  path: '/tsig-keys',
  summary: "List the current user's TSIG keys (never their secrets)",
  tags,
  security,
  request: { query: z.object(pageQuery) },
  responses: { 200: { description: 'Keys, oldest first', headers: pageHeaders, content: json(z.array(TsigKeySchema)) }, ...errors(400) },
});

const create = createRoute({
  method: 'post',
  path: '/tsig-keys',
  summary: 'Create a TSIG key for dynamic updates and transfers; its secret is shown in this response only',
  tags,
  security,
  request: { body: { required: true, content: json(TsigKeyCreateSchema) } },
  responses: { 201: { description: 'The new key with its secret', content: json(TsigKeyCreatedSchema) }, ...errors(400, 403, 408, 409, 413) },
});

const remove = createRoute({
  method: 'delete',
  path: '/tsig-keys/{name}',
  summary: 'Revoke one of your TSIG keys; messages signed with it are refused from then on (within 2 s)',
  tags,
  security,
  request: { params: z.object({ name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'acme-key' }) }) },
  responses: { 200: { description: 'The revoked key', content: json(TsigKeySchema) }, ...errors(403, 404) },
});

export function tsigKeysApi(services: Services) {
  const { tsigKeys, audit } = services;
  return createApi()
    .endpoint(list, async (c) => {
      const p = pageParams(c.req.valid('query'));
      const { rows, total } = await tsigKeys.page(c.get('principal').user.id, p.window);
      setPageHeaders(c, total, p);
      return c.json(rows.map(tsigKeyView), 200);
    })
    .endpoint(create, async (c) => {
      const { user, token } = c.get('principal');
      await services.secondFactors.requireRecentSignIn(token.id, 'creating a TSIG key');
      const key = await tsigKeys.create(user.id, c.req.valid('json'));
      await audit.record({ kind: 'tsig-key-created', actor: auditActor(c), subject: { id: user.id, username: user.username }, detail: tsigKeyDetail(key) });
      // The secret must not linger in any cache between here and its reader.
      c.header('Cache-Control', 'no-store');
      return c.json({ ...tsigKeyView(key), secret: key.secret, nsupdate: yArgument(key) }, 201);
    })
    .endpoint(remove, async (c) => {
      const { user } = c.get('principal');
      const key = await tsigKeys.revokeOwn(user.id, c.req.valid('param').name);
      await audit.record({ kind: 'tsig-key-deleted', actor: auditActor(c), subject: { id: user.id, username: user.username }, detail: tsigKeyDetail(key) });
      return c.json(tsigKeyView(key), 200);
    });
}
