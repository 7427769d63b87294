/**
 * Pagination for list endpoints: `page` (from 1) and `per_page` (default 50, max 500).
 * The body stays a bare array; totals and links travel in headers.
 */
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { Window } from '../store/types';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 500;

export const pageQuery = {
  page: z
    .string()
    .regex(/^[1-9][0-9]{0,6}$/, 'must be a whole number from 1 to 9999999')
    .optional()
    .openapi({ param: { name: 'page', in: 'query' }, example: '1', description: 'Page number, from 1' }),
  per_page: z
    .string()
    .regex(/^([1-9]|[1-9][0-9]|[1-4][0-9]{2}|500)$/, `must be a whole number from 1 to ${MAX_PER_PAGE}`)
    .optional()
    .openapi({ param: { name: 'per_page', in: 'query' }, example: '50', description: `Items per page, 1–${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE})` }),
  apikey: z
    .string()
    .optional()
    .openapi({ param: { name: 'apikey', in: 'query' }, description: 'API key, instead of the Authorization header' }),
};

export const pageHeaders = z.object({
  'X-Total-Count': z.string().openapi({ description: 'Number of items in all pages' }),
  'X-Page': z.string(),
  'X-Per-Page': z.string(),
  Link: z.string().optional().openapi({ description: 'RFC 8288 links with rel="next" and rel="prev"' }),
});

export interface PageParams {
  page: number;
  perPage: number;
}

export function pageParams(q: { page?: string; per_page?: string }): PageParams & { window: Window } {
  const page = q.page ? Number(q.page) : 1;
  const perPage = q.per_page ? Number(q.per_page) : DEFAULT_PER_PAGE;
  return { page, perPage, window: { offset: (page - 1) * perPage, limit: perPage } };
}

/** X-Total-Count, X-Page, X-Per-Page and Link (the apikey is never echoed into a link). */
export function pageHeaderValues(c: Context, total: number, p: PageParams): Record<string, string> {
  const headers: Record<string, string> = { 'x-total-count': String(total), 'x-page': String(p.page), 'x-per-page': String(p.perPage) };
  const hasNext = p.page * p.perPage < total;
  if (!hasNext && p.page === 1) return headers;
  // The request's URL is already normalized (@hono/node-server, undici): its path and query are
  // cut from the string, as a URL object would give them but without building one per page.
  const href = c.req.url;
  const pathStart = href.indexOf('/', href.indexOf('://') + 3);
  const queryStart = href.indexOf('?', pathStart);
  const hashStart = href.indexOf('#', pathStart);
  const pathEnd = queryStart >= 0 ? queryStart : hashStart >= 0 ? hashStart : href.length;
  const pathname = pathStart < 0 ? '/' : href.slice(pathStart, pathEnd);
  const query = new URLSearchParams(queryStart >= 0 ? href.slice(queryStart + 1, hashStart > queryStart ? hashStart : href.length) : '');
  query.delete('apikey');
  const link = (page: number, rel: string) => {
    query.set('page', String(page));
    query.set('per_page', String(p.perPage));
    return `<${pathname}?${query}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (hasNext) links.push(link(p.page + 1, 'next'));
  if (p.page > 1) links.push(link(Math.min(p.page - 1, Math.max(1, Math.ceil(total / p.perPage))), 'prev'));
  if (links.length) headers.link = links.join(', ');
  return headers;
}

/** Sets the page headers on the context's response. */
export function setPageHeaders(c: Context, total: number, p: PageParams): void {
  for (const [name, value] of Object.entries(pageHeaderValues(c, total, p))) c.header(name, value);
}
