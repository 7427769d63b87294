/**
 * One validating layer per API route, where @hono/zod-openapi adds one per part (query, path,
 * headers, media type, JSON body), each a Hono layer with asynchronous parsing. The same
 * schemas, in the same order, with the same answers: a failed schema goes to `fail` (the
 * API's defaultHook), a wrong content type is 415, and the JSON body is the value api/body.ts
 * parsed. A route using anything else (cookies, forms, several body types) gets `undefined`
 * and keeps @hono/zod-openapi's own validators.
 */
import { z, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { bodyJson } from './body';

type Result = { success: true; data: unknown } | { success: false; error: z.ZodError };

/** How @hono/zod-openapi tells a JSON media type, and matches a request's content type to it. */
const JSON_TYPE = /^application\/([a-z-.]+\+)?json/i;
const JSON_CONTENT_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const FORM_TYPE = /^(multipart\/form-data|application\/x-www-form-urlencoded)/i;
/** When Hono's json validator reads the body at all (else it validates `{}`). */
const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

const isZod = (x: unknown): x is z.ZodType => typeof x === 'object' && x !== null && typeof (x as z.ZodType).safeParse === 'function' && typeof (x as z.ZodType).safeParseAsync === 'function';
const unsupported = () => new HTTPException(415, { message: 'Unsupported Media Type' });

export function routeValidator(request: RouteConfig['request'], fail: (error: z.ZodError) => never): MiddlewareHandler | null | undefined {
  if (!request) return null;
  const { query, params, headers, body, ...rest } = request;
  if (Object.keys(rest).length > 0) return undefined;
  // Only the declared headers are read: a stripping object schema drops the others anyway.
  if (headers && !(headers instanceof z.ZodObject && headers.def.catchall === undefined)) return undefined;
  const headerNames = headers instanceof z.ZodObject ? Object.keys(headers.shape) : [];
  let json: { schema: z.ZodType; required: boolean } | undefined;
  if (body) {
    const schemaOf = (type: string): unknown => (body.content[type] as { schema?: unknown } | undefined)?.schema;
    const types = Object.keys(body.content);
    const validated = types.filter((t) => isZod(schemaOf(t)) && (JSON_TYPE.test(t) || FORM_TYPE.test(t)));
    if (validated.length > 0) {
      if (types.length !== 1 || validated.length !== 1 || !JSON_TYPE.test(types[0]!)) return undefined;
      json = { schema: schemaOf(types[0]!) as z.ZodType, required: body.required === true };
    }
  }
  if (!query && !params && !headers && !json) return null;

  /** The parsed value, or `fail`; a schema with asynchronous parts is parsed asynchronously. */
  const check = (schema: z.ZodType, value: unknown): {} => {
    let result: Result;
    try {
      result = schema.safeParse(value);
    } catch (e) {
      if (!(e instanceof z.core.$ZodAsyncError)) throw e;
      return schema.safeParseAsync(value).then((r: Result) => (r.success ? (r.data as {}) : fail(r.error)));
    }
    return result.success ? (result.data as {}) : fail(result.error);
  };

  return async (c, next) => {
    if (query) c.req.addValidatedData('query', await check(query, queryOf(c)));
    if (params) c.req.addValidatedData('param', await check(params, c.req.param()));
    if (headers) {
      const given: Record<string, string> = {};
      for (const name of headerNames) {
        const v = c.req.header(name);
        if (v !== undefined) given[name] = v;
      }
      c.req.addValidatedData('header', await check(headers, given));
    }
    if (json) {
      const type = c.req.header('content-type');
      if (type ? !JSON_CONTENT_TYPE.test(type) : await hasRequestBody(c)) throw unsupported();
      if (json.required || (type && JSON_TYPE.test(type))) {
        const media = type ? type.split(';')[0]!.trim().toLowerCase() : '';
        c.req.addValidatedData('json', await check(json.schema, JSON_MEDIA.test(media) ? await jsonOf(c) : {}));
      } else {
        c.req.addValidatedData('json', {});
      }
    }
    return next();
  };
}

/** The query as Hono's validator hands it on: a repeated parameter as an array. */
function queryOf(c: Context): Record<string, string | string[]> {
  let url = c.req.url;
  const hash = url.indexOf('#', 8);
  if (hash !== -1) url = url.slice(0, hash);
  const q = url.indexOf('?', 8);
  if (q === -1) return {};
  const query = url.slice(q + 1);
  // Nothing to decode (the usual `?page=2&per_page=50`): split it here, as Hono would, without its
  // general parser, which costs more than the rest of a cached GET's validation.
  if (!/[%+]/.test(query)) {
    const params = new Map<string, string | string[]>();
    for (const part of query.split('&')) {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      if (name === '') continue;
      const value = eq === -1 ? '' : part.slice(eq + 1);
      const seen = params.get(name);
      params.set(name, seen === undefined ? value : typeof seen === 'string' ? [seen, value] : [...seen, value]);
    }
    return Object.fromEntries(params);
  }
  return Object.fromEntries(Object.entries(c.req.queries()).map(([k, v]) => (v.length === 1 ? [k, v[0]!] : [k, v])));
}

/** The body api/body.ts parsed (and checked for depth and text), else Hono's parse. */
async function jsonOf(c: Context): Promise<unknown> {
  try {
    return await bodyJson(c);
  } catch {
    throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  }
}

/** Whether a request without a content type still has a body, as @hono/zod-openapi asks it (then 415). */
async function hasRequestBody(c: Context): Promise<boolean> {
  const raw = c.req.raw;
  if (raw.body === null) return false;
  if (raw.bodyUsed) return (await c.req.arrayBuffer()).byteLength > 0;
  const reader = raw.clone().body?.getReader();
  if (!reader) return false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
