/**
 * Serves the built SPA (`dist/`, made by `vite build`): hashed assets cached for a year,
 * everything else revalidated, and index.html for any other GET path so that deep links
 * into the client-side router work. Paths under /api and /bff never fall back.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

async function fileIn(root: string, urlPath: string): Promise<string | null> {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const full = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
  if (!full.startsWith(root + path.sep)) return null;
  const stat = await fs.promises.stat(full).catch(() => null);
  return stat?.isFile() ? full : null;
}

export function spaHandler(root: string) {
  const dir = path.resolve(root);
  return async (c: Context, next: () => Promise<void>): Promise<Response | void> => {
    const method = c.req.method;
    const p = c.req.path;
    if ((method !== 'GET' && method !== 'HEAD') || p === '/api' || p.startsWith('/api/') || p === '/bff' || p.startsWith('/bff/')) return next();
    let file = p === '/' ? null : await fileIn(dir, p);
    const isAsset = file !== null && p.startsWith('/assets/');
    if (!file) {
      // A missing asset or top-level file is a 404, not the app: a stale chunk must not get HTML.
      // Deeper paths are routes, and routes hold domain names full of dots (/domains/example.com).
      if (p.startsWith('/assets/') || /^\/[^/]+\.[a-z0-9]+$/i.test(p)) return next();
      file = await fileIn(dir, '/index.html');
      if (!file) {
        return c.text('The dashboard is not built yet: run `npm run build` (npm start does it for you).', 503);
      }
    }
    c.header('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    c.header('Cache-Control', isAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(await fs.promises.readFile(file)), 200);
  };
}
