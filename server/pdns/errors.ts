/**
 * Errors as the PowerDNS API answers them: its status codes and the body `{"error": "…"}`
 * (pdns/webserver.cc: `setErrorResult`). zonedeck's typed errors are translated here, in
 * one place: invalid data is 422 with every field zonedeck names, a missing zone 404, a
 * taken one 409, a scope 403; nothing a client sends ever becomes a 5xx.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZonedeckError } from '../core/errors';

/** A failure with PowerDNS's status and message. */
export class PdnsError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 422, PowerDNS's answer to data it cannot accept (its `ApiException`). */
export const unprocessable = (message: string) => new PdnsError(422, message);

/** The one text for "no such zone", for a missing zone and another user's alike. */
export const zoneNotFound = (zone: string) => new PdnsError(404, `Could not find domain '${zone}'`);

/** zonedeck's field messages in one line: `rrsets.0.ttl: must be …; name: …`. */
export function fieldsText(err: ZonedeckError): string {
  const fields = Object.entries(err.fields ?? {});
  if (fields.length === 0) return err.message;
  return fields.map(([k, v]) => `${k}: ${v}`).join('; ');
}

/** The status PowerDNS gives what zonedeck's error means. */
function statusOf(err: ZonedeckError): number {
  // zonedeck's 400 (invalid field) and 409 (a rule of the zone broken) are PowerDNS's 422.
  if (err.status === 400 || err.status === 409) return 422;
  return err.status;
}

/** Maps anything thrown in the PowerDNS API to its answer; unexpected errors are logged and answered 500 with the request id. */
export function pdnsErrorResponse(c: Context, err: unknown, log: (err: unknown, requestId: string) => void): Response {
  if (err instanceof PdnsError) return c.json({ error: err.message }, err.status as 400, err.headers);
  if (err instanceof ZonedeckError) {
    const headers = 'headers' in err && typeof err.headers === 'object' ? (err.headers as Record<string, string>) : {};
    // A zonedeck 400 names fields; a limit (413, 408, 429) carries its own message.
    const message = err.status === 400 || err.status === 409 ? fieldsText(err) : err.message;
    return c.json({ error: message }, statusOf(err) as 400, headers);
  }
  if (err instanceof HTTPException && err.status < 500) return c.json({ error: err.message || 'Bad Request' }, err.status);
  const requestId = (c.get('requestId') as string | undefined) ?? '';
  log(err, requestId);
  return c.json({ error: `Internal Server Error; quote the request id ${requestId} when reporting it` }, 500);
}
