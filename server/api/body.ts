/**
 * Reads a JSON request body once, at the edge: content type, size limit (413), time limit
 * (408), syntax and nesting depth (400). The parsed value is handed to the validators.
 */
import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { Invalid } from '../core/errors';
import { textProblem, textProblems } from '../core/text-rules';
import type { NodeBindings } from '../http-server';
import type { Check } from './checks';
import { HttpError } from './errors';

export const MAX_DEPTH = 32;

/** A request body as the edge read and checked it: parsed JSON, or a zone file's text. */
export type ReadBody = { json: unknown } | { text: string };

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by the body readers (this file, pdns/body.ts) through Hono's public `c.set`; read with `bodyJson` / `bodyText`. */
    readBody: ReadBody;
  }
}

/** The JSON body the edge parsed (and checked for size, time, depth and text); Hono's own parse when none was read. */
export function bodyJson(c: Context): Promise<unknown> {
  const read = c.get('readBody');
  return read && 'json' in read ? Promise.resolve(read.json) : c.req.json();
}

/** The zone file text the edge read (checked for size, time and UTF-8). */
export function bodyText(c: Context): Promise<string> {
  const read = c.get('readBody');
  return read && 'text' in read ? Promise.resolve(read.text) : c.req.text();
}

/**
 * Whether JSON text nests deeper than `limit`, found in one pass over the text without recursion
 * (and before JSON.parse): brackets and braces outside strings, escapes skipped. A recursive walk
 * of the parsed value overflowed the stack on `[`×30,000 (issue 24, finding 10).
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

const tooLarge = (limit: number) => new HttpError(413, 'payload_too_large', `request body is larger than ${limit} bytes`, undefined, { Connection: 'close' });
const tooSlow = (ms: number) => new HttpError(408, 'request_timeout', `request body not received within ${ms} ms`, undefined, { Connection: 'close' });

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
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw errors.tooLarge(limit);
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
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
      // What is left of a refused body is drained (and the connection closed) by @hono/node-server after the answer.
      if (err === undefined) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      else reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) finish(errors.tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onError = (err: Error) => finish(err);
    const onClose = () => finish(new Error('the client closed the connection before sending the whole request body'));
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
  (method === 'PATCH' && path.endsWith('/rrsets')) || (method === 'POST' && (path.endsWith('/zone') || path.endsWith('/domains'))) || ((method === 'POST' || method === 'PUT') && /\/templates(\/[0-9]+)?$/.test(path));
/** A zone import takes the master file itself (DESIGN.md §11). */
const isZoneFile = (method: string, path: string, type: string) => method === 'POST' && path.endsWith('/zone') && /^text\/(dns|plain)\s*(;|$)/i.test(type);

export function jsonBody(opts: { limitBytes: number; timeoutMs: number; bulkLimitBytes?: number }): Check {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return (c) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return;
    // A revert's body (a comment) is optional; a password reset (POST /users/:name/password), a TOTP enrolment
    // (POST /account/totp), new recovery codes, a deleted zone's restore and accepting an invitation have none: a bare POST is fine there.
    if (method === 'POST' && /\/(revert|password|account\/totp|account\/recovery-codes|restore|accept)$/.test(c.req.path) && !c.req.header('content-type') && !Number(c.req.header('content-length') ?? '0')) return;
    return read(c, method);
  };

  async function read(c: Context, method: string): Promise<void> {
    const limit = isBulk(method, c.req.path) ? (opts.bulkLimitBytes ?? opts.limitBytes) : opts.limitBytes;
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > limit) throw tooLarge(limit);
    const type = c.req.header('content-type') ?? '';
    if (isZoneFile(method, c.req.path, type)) {
      const bytes = await readBody(c, limit, opts.timeoutMs);
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch {
        throw new Invalid({ body: 'the zone file must be UTF-8 text; write other octets as \\DDD (RFC 1035 §5.1)' });
      }
      c.set('readBody', { text });
      return;
    }
    if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type)) {
      throw new HttpError(400, 'invalid_json', 'send the request body as JSON with content-type: application/json');
    }
    const bytes = await readBody(c, limit, opts.timeoutMs);
    let text: string;
    let value: unknown;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new HttpError(400, 'invalid_json', 'request body is not valid JSON (UTF-8)');
    }
    if (nestsDeeper(text)) throw new HttpError(400, 'invalid_json', `request body is nested deeper than ${MAX_DEPTH} levels`);
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(400, 'invalid_json', 'request body is not valid JSON (UTF-8)');
    }
    // The one text rule (core/text-rules.ts), here at the edge for every field of every body.
    const bad = textProblems(value);
    if (Object.keys(bad).length > 0) throw new Invalid(bad);
    c.set('readBody', { json: value });
  }
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
