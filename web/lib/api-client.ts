/**
 * The one HTTP client of the SPA. Everything goes to the BFF (same origin, session cookie);
 * a non-2xx answer becomes an ApiError that carries the server's per-field messages, which
 * forms show next to their inputs. Nothing else looks at raw responses.
 */
import type { ErrorBody } from './api-types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly requestId?: string,
    /** Seconds the server asked to wait before sending it again (Retry-After), when it said. */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }

  /** The message for one field, if the server named it. */
  field(name: string): string | undefined {
    return this.fields[name];
  }
}

let csrfToken: string | undefined;
let onSignedOut: () => void = () => {};
let onAnswer: (method: string, err: ApiError | null) => void = () => {};

/** The session's CSRF token, sent on every state-changing call. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the BFF says the session is gone, so the app can return to sign-in. */
export function handleSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

/** Told of every answer (null for a 2xx), so the app can tell when the service goes read-only and comes back. */
export function watchAnswers(fn: (method: string, err: ApiError | null) => void): void {
  onAnswer = fn;
}

/** Retry-After in seconds (RFC 9110 §10.2.3 allows a date too; the server sends seconds). */
function retryAfterOf(res: Response): number | undefined {
  const v = res.headers.get('retry-after');
  const s = v !== null && /^\d{1,6}$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isFinite(s) ? s : undefined;
}

export type Query = Record<string, string | number | undefined>;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  /** The response's headers (a list may say more there, e.g. X-Restorable-Days). */
  headers?: Headers;
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with its own content type (a zone file as `text/dns`), instead of `body`. */
  text?: { type: string; data: string };
  query?: Query;
  signal?: AbortSignal;
  /** The zone serial a write was made against: sent as If-Match, so a stale write is refused (412). */
  ifMatch?: number;
}

async function send(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.text !== undefined) headers['content-type'] = opts.text.type;
  else if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  if (opts.ifMatch !== undefined) headers['if-match'] = `"${opts.ifMatch}"`;
  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), {
      method,
      headers,
      body: opts.text !== undefined ? opts.text.data : opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (res.ok) {
    onAnswer(method, null);
    return res;
  }
  let body: Partial<ErrorBody> = {};
  try {
    body = (await res.json()) as ErrorBody;
  } catch {
    /* not JSON: keep the status text */
  }
  const e = body.error;
  const err = new ApiError(res.status, e?.code ?? `http_${res.status}`, e?.message ?? (res.statusText || `request failed (${res.status})`), e?.fields, e?.request_id, retryAfterOf(res));
  onAnswer(method, err);
  if (err.status === 401 && err.code === 'signed_out') onSignedOut();
  return Promise.reject(err);
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(method, path, opts);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** A zone write's answer and the zone's serial after it (its ETag), for the next If-Match. */
export interface Written<T> {
  data: T;
  serial: number | undefined;
}

/** `"2026112301"` (or `W/"…"`) → 2026112301. */
export function serialOfEtag(etag: string | null): number | undefined {
  const m = etag ? /^(?:W\/)?"?([0-9]{1,12})"?$/.exec(etag.trim()) : null;
  return m ? Number(m[1]) : undefined;
}

export async function requestWrite<T>(method: string, path: string, opts: RequestOptions = {}): Promise<Written<T>> {
  const res = await send(method, path, opts);
  const serial = serialOfEtag(res.headers.get('etag'));
  return { data: res.status === 204 ? (undefined as T) : ((await res.json()) as T), serial };
}

/** One page of a list, with the totals from the X-Total-Count, X-Page and X-Per-Page headers. */
export async function requestPage<T>(path: string, query: Query, signal?: AbortSignal): Promise<Page<T>> {
  const res = await send('GET', path, { query, signal });
  const items = (await res.json()) as T[];
  const num = (h: string, fallback: number) => {
    const v = Number(res.headers.get(h));
    return Number.isFinite(v) && res.headers.has(h) ? v : fallback;
  };
  return { items, total: num('x-total-count', items.length), page: num('x-page', 1), perPage: num('x-per-page', items.length), headers: res.headers };
}

/** Every item of a paginated list: the first page tells the total, the rest load in parallel. */
export async function requestAll<T>(path: string, query: Query = {}, signal?: AbortSignal, concurrency = 6): Promise<T[]> {
  const perPage = 500;
  const first = await requestPage<T>(path, { ...query, per_page: perPage, page: 1 }, signal);
  const pages = Math.ceil(first.total / perPage);
  const results: T[][] = [first.items];
  let next = 2;
  const worker = async () => {
    while (next <= pages) {
      const page = next++;
      results[page - 1] = (await requestPage<T>(path, { ...query, per_page: perPage, page }, signal)).items;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(0, pages - 1)) }, worker));
  return results.flat();
}
