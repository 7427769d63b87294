/** Starts the HTTP(S) listener for the app; with TLS_CERT/TLS_KEY it serves HTTPS only. */
import fs from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Config } from './config';

/** What @hono/node-server hands the app as `c.env`: Node's own request and response. In-process calls (tests, the BFF) have neither. */
export type NodeBindings = { incoming?: IncomingMessage; outgoing?: ServerResponse };

export function startHttp(fetch: (req: Request, env: NodeBindings) => Response | Promise<Response>, config: Config): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve, reject) => {
    const tls = config.tls;
    const server = serve(
      {
        // HTTP/1.1 only (no createSecureServer of http2), so the bindings are always Node's IncomingMessage and ServerResponse.
        fetch: (req, env) => fetch(req, env as NodeBindings),
        hostname: config.host,
        port: config.port,
        ...(tls
          ? { createServer: createHttpsServer, serverOptions: { cert: fs.readFileSync(tls.cert), key: fs.readFileSync(tls.key), headersTimeout: 15_000, requestTimeout: 60_000 } }
          : { serverOptions: { headersTimeout: 15_000, requestTimeout: 60_000 } }),
      },
      (info: AddressInfo) => {
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({ server, url: `${tls ? 'https' : 'http'}://${host}:${info.port}` });
      },
    );
    // Longer than the idle timeouts of common clients and proxies (undici 4 s, nginx 60 s), so
    // the server is never the side that closes a connection a client is about to reuse.
    (server as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;
    server.once('error', reject);
  });
}

/**
 * Graceful stop: no new connections, requests in flight finish, then keep-alive connections
 * are closed as soon as they are idle; after `graceMs` whatever is left is cut.
 */
export function stopHttp(server: ServerType, graceMs = 10_000): Promise<void> {
  const s = server as ServerType & { closeIdleConnections(): void; closeAllConnections(): void };
  return new Promise((resolve) => {
    const idle = setInterval(() => s.closeIdleConnections(), 50);
    const deadline = setTimeout(() => s.closeAllConnections(), graceMs);
    s.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve();
    });
    s.closeIdleConnections();
  });
}
