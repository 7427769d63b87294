/**
 * One OpenAPIHono factory for every resource: request validation failures become the
 * one error body with one message per field.
 */
import { OpenAPIHono, z, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import { Invalid } from '../core/errors';
import type { ApiEnv } from './auth';
import { routeValidator } from './route-validator';
import { ErrorSchema, READ_ONLY_FIELDS } from './zones/schemas';

type Issue = { code: string; path: PropertyKey[]; message: string; keys?: string[] };

/** One message per field from zod issues; unknown and read-only fields are named as such. */
export function fieldsOf(issues: readonly Issue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) {
        const path = [...issue.path.map(String), key].join('.');
        fields[path] ??= READ_ONLY_FIELDS.has(key) ? 'is read-only' : 'is not a known field';
      }
      continue;
    }
    const path = issue.path.map(String).join('.') || 'body';
    fields[path] ??= path === 'body' && issue.code === 'invalid_type' ? 'must be a JSON object' : issue.message;
  }
  return fields;
}

const invalid = (error: z.ZodError): never => {
  throw new Invalid(fieldsOf(error.issues as unknown as Issue[]));
};

/**
 * An OpenAPIHono whose routes are added with `endpoint()`: the OpenAPI entry through the library's
 * registry, and the request validated in one layer (route-validator.ts) where the route allows it,
 * else by the library's own `openapi()` — public APIs only, nothing of the library replaced.
 */
export class Api extends OpenAPIHono<ApiEnv> {
  constructor() {
    super({
      defaultHook: (result) => {
        if (!result.success) invalid(result.error);
      },
    });
  }

  endpoint<R extends RouteConfig>(given: R, handler: RouteHandler<R, ApiEnv>): this {
    // A route that takes a body answers a body of another media type with 415 (route-validator.ts).
    const config: R = given.request?.body ? { ...given, responses: { ...given.responses, 415: { description: ERROR_TEXT[415]!, content: errorContent } } } : given;
    const validate = config.middleware === undefined ? routeValidator(config.request, invalid) : undefined;
    if (validate === undefined) {
      this.openapi(config, handler as never);
      return this;
    }
    const { hide, ...route } = config;
    if (!hide) this.openAPIRegistry.registerPath(route);
    const path = route.path.replaceAll(/\/{(.+?)}/g, '/:$1');
    if (validate) this.on(route.method.toUpperCase(), path, validate, handler as never);
    else this.on(route.method.toUpperCase(), path, handler as never);
    return this;
  }
}

export function createApi(): Api {
  return new Api();
}

const errorContent = { 'application/json': { schema: ErrorSchema } };
const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input; `fields` names each bad field',
  401: 'Missing, unknown, revoked or expired token',
  403: "The resource is managed by the service, or the token's scope does not allow the request",
  404: 'No such resource for this user',
  408: 'Request body not received in time',
  409: 'Conflicts with existing data (duplicate, CNAME exclusivity, name taken, a revert whose records changed since)',
  412: 'If-Match names a serial the zone is no longer at; nothing was changed',
  413: 'Request body too large',
  415: 'Request body not of a media type the operation takes (the message names them), or sent with no Content-Type',
  500: 'Internal error; carries a request id',
};

/** The error responses of an operation, for the OpenAPI document. */
export function errors(...codes: number[]) {
  // Any request may be outside its token's scope (client network, read-only): 403 everywhere.
  return Object.fromEntries([...codes, 401, 403, 500].map((code) => [code, { description: ERROR_TEXT[code]!, content: errorContent }]));
}

export const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });

export const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apikey: [] }];
