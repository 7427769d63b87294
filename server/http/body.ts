/**
 * Request bodies of the v1 API, read once. The edge (`bodyLimits`, a check before routing) refuses
 * a body whose declared size is over its limit and notes the size and time the request's body may
 * take; the route that takes a body reads it (route-validator.ts) as the media type its contract
 * names: JSON (syntax, nesting depth and the text rule checked here) or a zone file's text. What
 * was read is handed on through `bodyJson` / `bodyText`, which never read the request again. A
 * route that takes no body never reads one: the HTTP layer drains it (http-server.ts).
 */
import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { Invalid } from '../core/errors';
import { textProblem, textProblems } from '../core/text-rules';
import type { NodeBindings } from './http-server';
import type { Check } from './checks';
import { HttpError } from './http-error';

export const MAX_DEPTH = 32;

/** A request body as its route read and checked it: parsed JSON, or a zone file's text. */
export type ReadBody = { json: unknown } | { text: string };

/** The size and time a request's body may take. */
export interface BodyLimits {
  limitBytes: number;
  timeoutMs: number;
}

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by the body readers (this file, pdns/body.ts) through Hono's public `c.set`; read with `bodyJson` / `bodyText`. */
    readBody: ReadBody;
    /** Set at the edge (`bodyLimits`) for the route that reads the body. */
    bodyLimits: BodyLimits;
  }
}

/** The answer to a body sent as a media type the route does not take (or with none), naming those it takes. */
export function unsupportedMediaType(types: readonly string[]): HttpError {
  const list = types.length > 1 ? `${types.slice(0, -1).join(', ')} or ${types.at(-1)}` : types[0];
  return new HttpError(415, 'unsupported_media_type', `send the request body as ${list}, with that Content-Type header`);
}

/**
 * The JSON body its route read (checked for size, time, depth and text). Never a second read of
 * the request: a body read as something else, or not read, is a 415 naming JSON.
 */
export function bodyJson(c: Context): Promise<unknown> {
  const read = c.get('readBody');
  return read && 'json' in read ? Promise.resolve(read.json) : Promise.reject(unsupportedMediaType(['application/json']));
}

/** The zone file text its route read (checked for size, time and UTF-8); as `bodyJson`, never a second read. */
export function bodyText(c: Context): Promise<string> {
  const read = c.get('readBody');
  return read && 'text' in read ? Promise.resolve(read.text) : Promise.reject(unsupportedMediaType(['text/dns', 'text/plain']));
}

/**
 * Whether JSON text nests deeper than `limit`, found in one pass over the text without recursion
 * (and before JSON.parse): brackets and braces outside strings, escapes skipped. A recursive walk
 * of the parsed value overflowed the stack on `[`×30,000.
 */
export function nestsDeeper(text: string, limit = MAX_DEPTH): boolean {
  let level = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++level > limit) return true;
    } else if (c === 0x5d || c === 0x7d) level--;
  }
  return false;
}

// No `Connection: close` on a 413: the rest of the body is drained (http-server.ts), so a client still
// sending it reads the answer, and the connection may serve its next request. A 408's client is too
// slow to wait for: its connection is closed (RFC 9110 §15.5.9).
const tooLarge = (limit: number) => new HttpError(413, 'payload_too_large', `request body is larger than ${limit} bytes`);
const tooSlow = (ms: number) => new HttpError(408, 'request_timeout', `request body not received within ${ms} ms`, undefined, { Connection: 'close' });

/** A body its client stopped sending (the connection closed or failed): nobody reads the answer, but it is no server error. */
const incomplete = () => new HttpError(400, 'incomplete_body', 'the connection ended before the whole request body arrived');

/** How a body that is too large or too slow is refused (each API answers in its own error shape). */
export interface BodyErrors {
  tooLarge(limit: number): Error;
  tooSlow(timeoutMs: number): Error;
}

/** Reads a whole web stream (in-process requests), refusing it past `limit` bytes or `timeoutMs` milliseconds. */
async function readLimited(stream: ReadableStream<Uint8Array>, limit: number, timeoutMs: number, errors: BodyErrors = { tooLarge, tooSlow }): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(errors.tooSlow(timeoutMs)), timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read().catch(() => Promise.reject(incomplete())), timeout]);
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw errors.tooLarge(limit);
      chunks.push(value);
    }
  } catch (err) {
    // Not cancelled: the rest of a refused body is the HTTP layer's to drain (http-server.ts), and
    // cancelling the stream of a request the BFF forwards in process would reset the client's
    // connection before it read the answer.
    try {
      reader.releaseLock();
    } catch {
      // A read still pending (the time ran out) keeps the lock on older runtimes; the stream is dropped with the request.
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

/** Reads Node's request stream itself, with the same limits: cheaper than the web stream @hono/node-server would wrap it in. */
function readIncoming(incoming: IncomingMessage, limit: number, timeoutMs: number, errors: BodyErrors): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err: unknown) => {
      clearTimeout(timer);
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      // What is left of a refused body is drained after the answer (http-server.ts).
      if (err === undefined) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      else reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) finish(errors.tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onError = () => finish(incomplete());
    const onClose = () => finish(incomplete());
    const timer = setTimeout(() => finish(errors.tooSlow(timeoutMs)), timeoutMs);
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The whole body of a request, refused past `limit` bytes or `timeoutMs` milliseconds. */
export function readBody(c: Context, limit: number, timeoutMs: number, errors: BodyErrors = { tooLarge, tooSlow }): Promise<Uint8Array> {
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  if (incoming instanceof IncomingMessage && !incoming.readableDidRead) return readIncoming(incoming, limit, timeoutMs, errors);
  // In process (tests, the BFF): a web request.
  const body = c.req.raw.body;
  return body ? readLimited(body, limit, timeoutMs, errors) : Promise.resolve(new Uint8Array(0));
}

/** Bulk writes (many RRsets at once, whole zones) may be larger than ordinary bodies. */
const isBulk = (method: string, path: string) =>
  (method === 'PATCH' && path.endsWith('/rrsets')) ||
  (method === 'POST' && (path.endsWith('/zone') || path.endsWith('/domains'))) ||
  ((method === 'POST' || method === 'PUT') && /\/templates(\/[0-9]+)?$/.test(path));

/** The limits of a route reached without the edge (a test's own app): the defaults of BODY_LIMIT_BYTES and BODY_TIMEOUT_MS. */
const DEFAULT_LIMITS: BodyLimits = { limitBytes: 65_536, timeoutMs: 10_000 };

/**
 * The edge's part: a write whose declared size is over its limit is refused before any of it is
 * read, and the limits are noted for the route that reads the body.
 */
export function bodyLimits(opts: { limitBytes: number; timeoutMs: number; bulkLimitBytes?: number }): Check {
  return (c) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return;
    const limitBytes = isBulk(method, c.req.path) ? (opts.bulkLimitBytes ?? opts.limitBytes) : opts.limitBytes;
    if (Number(c.req.header('content-length') ?? '0') > limitBytes) throw tooLarge(limitBytes);
    c.set('bodyLimits', { limitBytes, timeoutMs: opts.timeoutMs });
  };
}

/** The request's whole body, within the limits the edge set. */
export function readRouteBody(c: Context): Promise<Uint8Array> {
  const { limitBytes, timeoutMs } = c.get('bodyLimits') ?? DEFAULT_LIMITS;
  return readBody(c, limitBytes, timeoutMs);
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const notJson = () => new HttpError(400, 'invalid_json', 'request body is not valid JSON (UTF-8)');

/** Reads the body as JSON: 400 for bytes that are not UTF-8 JSON or nest too deep, the text rule on every string. */
export async function readJson(c: Context): Promise<unknown> {
  const bytes = await readRouteBody(c);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw notJson();
  }
  if (nestsDeeper(text)) throw new HttpError(400, 'invalid_json', `request body is nested deeper than ${MAX_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notJson();
  }
  // The one text rule (core/text-rules.ts), here at the edge for every field of every body.
  const bad = textProblems(value);
  if (Object.keys(bad).length > 0) throw new Invalid(bad);
  c.set('readBody', { json: value });
  return value;
}

/** Reads the body as a zone file's text (UTF-8; the zone file parser applies its own rules to the lines). */
export async function readText(c: Context): Promise<string> {
  const bytes = await readRouteBody(c);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new Invalid({ body: 'the zone file must be UTF-8 text; write other octets as \\DDD (RFC 1035 §5.1)' });
  }
  c.set('readBody', { text });
  return text;
}

/** The text rule for query strings: a control character in any parameter is a 400 naming it. */
export const cleanQuery: Check = (c) => {
  const url = c.req.url;
  const q = url.indexOf('?');
  // The request URL holds control characters and non-ASCII text only percent-encoded (the URL
  // parser and @hono/node-server encode them), so a query without '%' has nothing to refuse.
  if (q < 0 || !url.includes('%', q)) return;
  const bad: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
    const p = textProblem(v) ?? textProblem(k);
    if (p) bad[k] = p;
  }
  if (Object.keys(bad).length > 0) throw new Invalid(bad);
};
