/**
 * API tokens of the current user: list, create (the secret is in that one response only),
 * revoke. A user sees and revokes only their own tokens; another user's id answers 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Services } from '../../services';
import { tokenDetail } from '../../services/identity/audit';
import type { TokenRow } from '../../store/types';
import { createApi, errors, json, security } from '../create-api';
import { pageHeaders, pageParams, pageQuery, setPageHeaders } from '../pagination';
import { TokenCreatedSchema, TokenCreateSchema, TokenSchema } from '../zones/schemas';
import { pathId } from '../path-id';
import { auditActor } from '../../http/audit-actor';

const tags = ['Tokens'];
const DAY_MS = 86_400_000;

const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: '7' }) });

/** A path id that cannot name a token is simply not found, as in the records API. */
const tokenId = (raw: string) => pathId(raw, 'token');

/** A token row as its owner may see it; `currentId` is the token of the request. */
export function tokenView(t: TokenRow, currentId: number) {
  return { id: t.id, label: t.label, created_at: t.created_at, last_used_at: t.last_used_at, expires_at: t.expires_at, current: t.id === currentId, scope: t.scope };
}

const list = createRoute({
  method: 'get',
  path: '/tokens',
  summary: "List the current user's API tokens (never their secrets)",
  tags,
  security,
  request: {
    query: z.object({
      ...pageQuery,
      kind: z.enum(['all', 'api'], { error: 'must be all or api' }).optional().openapi({ description: 'api: without the tokens of dashboard sessions (default all)' }),
      order: z.enum(['oldest', 'newest'], { error: 'must be oldest or newest' }).optional().openapi({ description: 'By creation; oldest first by default' }),
    }),
  },
  responses: { 200: { description: 'Tokens, oldest first (or as `order` says)', headers: pageHeaders, content: json(z.array(TokenSchema)) }, ...errors(400) },
});

const create = createRoute({
  method: 'post',
  path: '/tokens',
  summary: 'Create an API token; its secret is shown in this response only',
  tags,
  security,
  request: { body: { required: true, content: json(TokenCreateSchema) } },
  responses: { 201: { description: 'The new token with its secret', content: json(TokenCreatedSchema) }, ...errors(400, 403, 408, 413) },
});

const remove = createRoute({
  method: 'delete',
  path: '/tokens/{id}',
  summary: 'Revoke one of your tokens; requests with it answer 401 from then on',
  tags,
  security,
  request: { params: idParam },
  responses: { 200: { description: 'The revoked token', content: json(TokenSchema) }, ...errors(404) },
});

export function tokensApi(services: Services) {
  const { accounts, audit } = services;
  return createApi()
    .endpoint(list, async (c) => {
      const { user, token } = c.get('principal');
      const q = c.req.valid('query');
      const p = pageParams(q);
      const { rows, total } = await accounts.pageTokens(user.id, p.window, { apiOnly: q.kind === 'api', newestFirst: q.order === 'newest' });
      setPageHeaders(c, total, p);
      return c.json(
        rows.map((t) => tokenView(t, token.id)),
        200,
      );
    })
    .endpoint(create, async (c) => {
      const { user, token } = c.get('principal');
      await services.secondFactors.requireRecentSignIn(token.id, 'creating an API token');
      const { label, expires_in_days: days, scope } = c.req.valid('json');
      const expiresAt = days === undefined ? null : new Date(Date.now() + days * DAY_MS).toISOString();
      const created = await accounts.createToken(user.id, label, expiresAt, scope);
      await audit.record({ kind: 'token-created', actor: auditActor(c), subject: { id: user.id, username: user.username }, detail: tokenDetail(created.row) });
      // The secret must not linger in any cache between here and its reader.
      c.header('Cache-Control', 'no-store');
      return c.json({ ...tokenView(created.row, token.id), token: created.token }, 201);
    })
    .endpoint(remove, async (c) => {
      const { user, token } = c.get('principal');
      const row = await accounts.revokeOwnToken(user.id, tokenId(c.req.valid('param').id));
      await audit.record({ kind: 'token-revoked', actor: auditActor(c), subject: { id: user.id, username: user.username }, detail: tokenDetail(row) });
      return c.json(tokenView(row, token.id), 200);
    });
}
