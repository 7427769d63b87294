/**
 * The body of the BFF's own JSON routes (sign-in, re-authentication, passkeys, the single sign-on
 * code): sent as application/json (415 naming it otherwise, or with no content type), at most
 * `maxSize` bytes (413). The route parses it and names the shape it expects when it is not that.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { BffError } from './errors';

/** application/json and its structured-syntax kin (`application/…+json`), with parameters such as a charset. */
const JSON_CONTENT_TYPE = /^application\/([a-z0-9.-]+\+)?json\s*(;|$)/i;

export function jsonBody(maxSize: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw new BffError(413, 'payload_too_large', 'request body is too large');
    },
  });
  return (c, next) => {
    if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) {
      throw new BffError(415, 'unsupported_media_type', 'send the request body as application/json, with that Content-Type header');
    }
    return limit(c, next);
  };
}

/** The body, parsed as `schema`; 400 with `message`, which names the shape expected, when it is not that. */
export async function parsedBody<T>(c: Context, schema: z.ZodType<T>, message: string): Promise<T> {
  try {
    return schema.parse(await c.req.json());
  } catch {
    throw new BffError(400, 'invalid_json', message);
  }
}
