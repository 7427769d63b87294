/**
 * CORS preflight (`OPTIONS`) as PowerDNS's web server answers it (pdns/webserver.cc, its
 * `OptionsHandlerRoute`): 200 naming the methods the path has and the headers a browser may
 * send, without a key (a preflight never carries one), and 404 for a path it does not serve.
 * Like PowerDNS without `webserver-allow-origin`… no `Access-Control-Allow-Origin` is sent, so a
 * browser on another origin still may not read the answers: the preflight only says what exists.
 */
import type { Handler } from 'hono';

const ID = '[^/]+';

/** The PowerDNS paths zonedeck serves (under `/api`) and their methods, in PowerDNS's order. */
const ROUTES: ReadonlyArray<[RegExp, string[]]> = [
  ['', ['GET']],
  ['/v1', ['GET']],
  ['/v1/servers', ['GET']],
  ['/v1/servers/localhost', ['GET']],
  ['/v1/servers/localhost/cache/flush', ['PUT']],
  ['/v1/servers/localhost/search-data', ['GET']],
  ['/v1/servers/localhost/statistics', ['GET']],
  [`/v1/servers/localhost/tsigkeys/${ID}`, ['GET', 'PUT', 'DELETE']],
  ['/v1/servers/localhost/tsigkeys', ['GET', 'POST']],
  [`/v1/servers/localhost/zones/${ID}/cryptokeys/${ID}`, ['GET', 'PUT', 'DELETE']],
  [`/v1/servers/localhost/zones/${ID}/cryptokeys`, ['GET', 'POST']],
  [`/v1/servers/localhost/zones/${ID}/export`, ['GET']],
  [`/v1/servers/localhost/zones/${ID}/metadata/${ID}`, ['GET', 'PUT', 'DELETE']],
  [`/v1/servers/localhost/zones/${ID}/metadata`, ['GET', 'POST']],
  [`/v1/servers/localhost/zones/${ID}/notify`, ['PUT']],
  [`/v1/servers/localhost/zones/${ID}`, ['GET', 'PATCH', 'PUT', 'DELETE']],
  ['/v1/servers/localhost/zones', ['GET', 'POST']],
].map(([path, methods]) => [new RegExp(`^/api${path}/?$`), methods as string[]]);

/** The methods a path under `/api` has, or null when zonedeck serves no PowerDNS path there. */
export function methodsOf(path: string): string[] | null {
  return ROUTES.find(([re]) => re.test(path))?.[1] ?? null;
}

export const preflight: Handler = (c) => {
  const methods = methodsOf(c.req.path);
  if (!methods) return c.body(null, 404);
  return c.body(null, 200, {
    'Access-Control-Allow-Headers': 'Content-Type, X-API-Key',
    'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
    'Access-Control-Max-Age': '3600',
  });
};
