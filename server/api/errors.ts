/**
 * The one error body (docs/api.md, "Errors") and the one mapper from thrown errors to it.
 * Nothing else builds an error response; no stack trace ever reaches a client.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZonedeckError } from '../core/errors';

export interface ErrorBody {
  error: { status: number; code: string; message: string; fields?: Record<string, string>; request_id?: string };
}

export function errorBody(status: number, code: string, message: string, fields?: Record<string, string>, requestId?: string): ErrorBody {
  return { error: { status, code, message, ...(fields ? { fields } : {}), ...(requestId ? { request_id: requestId } : {}) } };
}

/** Maps any thrown value to a response; unexpected ones are logged with the request id and answered 500. */
export function errorResponse(c: Context, err: unknown, log: (err: unknown, requestId: string) => void): Response {
  const requestId = (c.get('requestId') as string | undefined) ?? '';
  if (err instanceof ZonedeckError) {
    return c.json(errorBody(err.status, err.code, err.message, err.fields), err.status as 400, err.headers ?? {});
  }
  if (err instanceof HTTPException && err.status < 500) {
    const code = err.status === 400 ? 'invalid_json' : `http_${err.status}`;
    return c.json(errorBody(err.status, code, err.message || 'bad request'), err.status);
  }
  log(err, requestId);
  return c.json(errorBody(500, 'internal', 'internal server error; quote the request id when reporting it', undefined, requestId), 500);
}
