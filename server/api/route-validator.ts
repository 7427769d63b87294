/**
 * One validating layer per API route, where @hono/zod-openapi adds one per part (query, path,
 * headers, media type, JSON body), each a Hono layer with asynchronous parsing. The same
 * schemas, in the same order, with the same answers: a failed schema goes to `fail` (the
 * API's defaultHook). The body is read here, once, as the media type the request names among
 * those its route takes (api/body.ts): JSON, validated by the route's schema, or text (a zone
 * file). Any other media type is a 415 naming those the route takes, and so is a body sent with
 * no content type; a route that takes no body never reads one. A route using anything else
 * (cookies, forms) gets `undefined` and keeps @hono/zod-openapi's own validators.
 */
import { z, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { readJson, readRouteBody, readText, unsupportedMediaType } from '../http/body';

type Result = { success: true; data: unknown } | { success: false; error: z.ZodError };

/** How @hono/zod-openapi tells a JSON media type, and matches a request's content type to it. */
const JSON_TYPE = /^application\/([a-z-.]+\+)?json/i;
const JSON_CONTENT_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
/** Text a route takes as it is (a zone file). */
const TEXT_TYPE = /^text\/[a-z0-9.+-]+$/i;

const isZod = (x: unknown): x is z.ZodType => typeof x === 'object' && x !== null && typeof (x as z.ZodType).safeParse === 'function' && typeof (x as z.ZodType).safeParseAsync === 'function';

/** The body a route takes: its JSON schema (if it takes JSON), the text media types it takes, and all of them by name. */
interface BodyContract {
  json: z.ZodType | undefined;
  text: readonly string[];
  types: readonly string[];
  required: boolean;
}

/** The route's body contract, or undefined when it takes a media type this layer does not read (forms). */
function contractOf(body: NonNullable<RouteConfig['request']>['body']): BodyContract | null | undefined {
  if (!body) return null;
  const types = Object.keys(body.content);
  const schemaOf = (type: string): unknown => (body.content[type] as { schema?: unknown } | undefined)?.schema;
  const json = types.filter((t) => JSON_TYPE.test(t));
  const text = types.filter((t) => TEXT_TYPE.test(t)).map((t) => t.toLowerCase());
  if (json.length + text.length !== types.length || json.length > 1) return undefined;
  const schema = json.length === 1 ? schemaOf(json[0]!) : undefined;
  if (json.length === 1 && !isZod(schema)) return undefined;
  return { json: schema as z.ZodType | undefined, text, types, required: body.required === true };
}

export function routeValidator(request: RouteConfig['request'], fail: (error: z.ZodError) => never): MiddlewareHandler | null | undefined {
  if (!request) return null;
  const { query, params, headers, body, ...rest } = request;
  if (Object.keys(rest).length > 0) return undefined;
  // Only the declared headers are read: a stripping object schema drops the others anyway.
  if (headers && !(headers instanceof z.ZodObject && headers.def.catchall === undefined)) return undefined;
  const headerNames = headers instanceof z.ZodObject ? Object.keys(headers.shape) : [];
  const contract = contractOf(body);
  if (contract === undefined) return undefined;
  if (!query && !params && !headers && !contract) return null;

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
    if (contract) await readContractBody(c, contract, check);
    return next();
  };
}

/** Reads the body as the media type the request names, if the route takes it; else 415 naming those it takes. */
async function readContractBody(c: Context, contract: BodyContract, check: (schema: z.ZodType, value: unknown) => {}): Promise<void> {
  const type = c.req.header('content-type');
  if (type === undefined) {
    // No content type: nothing may be sent, and only where the body is optional (a bare POST).
    if (contract.required || (await readRouteBody(c)).byteLength > 0) throw unsupportedMediaType(contract.types);
    // As @hono/zod-openapi hands on an optional body that was not sent.
    if (contract.json) c.req.addValidatedData('json', {});
    return;
  }
  if (contract.json && JSON_CONTENT_TYPE.test(type)) {
    c.req.addValidatedData('json', await check(contract.json, await readJson(c)));
    return;
  }
  if (contract.text.includes(type.split(';')[0]!.trim().toLowerCase())) {
    await readText(c);
    return;
  }
  throw unsupportedMediaType(contract.types);
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
