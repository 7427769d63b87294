/**
 * Request bodies of the PowerDNS API, read once at the edge with the same limits as
 * zonedeck's API (413 over the size, 408 when too slow) and the one text rule. PowerDNS
 * clients are loose about bodies: lego's NOTIFY is a PUT with a JSON content type and no
 * body, lexicon sends `{}` with every GET, so an empty body reads as `{}` and the content
 * type is not checked.
 */
import type { MiddlewareHandler } from 'hono';
import { Invalid } from '../core/errors';
import { textProblem, textProblems } from '../core/text-rules';
import { MAX_DEPTH, nestsDeeper, readBody } from '../http/body';
import { PdnsError } from './errors';

export interface BodyLimits {
  limitBytes: number;
  /** PATCH of RRsets and zone creation carry whole zones. */
  bulkLimitBytes: number;
  timeoutMs: number;
}

const errors = {
  // As the v1 API's (api/body.ts): a 413's rest is drained, a 408's connection closed.
  tooLarge: (limit: number) => new PdnsError(413, `request body is larger than ${limit} bytes`),
  tooSlow: (ms: number) => new PdnsError(408, `request body not received within ${ms} ms`, { Connection: 'close' }),
};

/** A zone file (POST …/zones `zone`) is text of many lines: tabs and line breaks are its own. */
const isZoneFileBody = (v: unknown): v is { zone: string } => typeof v === 'object' && v !== null && typeof (v as { zone?: unknown }).zone === 'string';

function withoutZoneFile(value: unknown): unknown {
  if (!isZoneFileBody(value)) return value;
  const { zone: _, ...rest } = value;
  return rest;
}

function zoneFileProblem(value: unknown): string | null {
  return isZoneFileBody(value) ? textProblem(value.zone.replace(/[\t\r\n]/g, ' ')) : null;
}

/** Reads the JSON body of a write (api/body.ts `bodyJson` gives it to the handlers); `{}` when there is none. */
export function pdnsBody(limits: BodyLimits): MiddlewareHandler {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    const bulk = method === 'PATCH' || (method === 'POST' && c.req.path.endsWith('/zones'));
    const limit = bulk ? limits.bulkLimitBytes : limits.limitBytes;
    if (Number(c.req.header('content-length') ?? '0') > limit) throw errors.tooLarge(limit);
    const bytes = await readBody(c, limit, limits.timeoutMs, errors);
    let value: unknown = {};
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new PdnsError(400, 'the request body is not valid JSON (UTF-8)');
    }
    if (nestsDeeper(text)) throw new PdnsError(400, `the request body is nested deeper than ${MAX_DEPTH} levels`);
    try {
      if (text.trim() !== '') value = JSON.parse(text);
    } catch {
      throw new PdnsError(400, 'the request body is not valid JSON (UTF-8)');
    }
    const bad = textProblems(withoutZoneFile(value));
    const zone = zoneFileProblem(value);
    if (zone) bad.zone = zone;
    if (Object.keys(bad).length > 0) throw new Invalid(bad);
    c.set('readBody', { json: value });
    return next();
  };
}
