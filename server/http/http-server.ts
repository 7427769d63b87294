/** Starts the HTTP(S) listener for the app; with TLS_CERT/TLS_KEY it serves HTTPS only. */
import fs from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Config } from '../config';

/** What @hono/node-server hands the app as `c.env`: Node's own request and response. In-process calls (tests, the BFF) have neither. */
export type NodeBindings = { incoming?: IncomingMessage; outgoing?: ServerResponse };

/** How much of a body its answer did not need is still read, and for how long, before the connection is cut. */
export interface DrainBound {
  bytes: number;
  ms: number;
}

/**
 * The rest of a request's body, once its answer is sent without it (a body over the limit, a write
 * refused before its body was read), is read and dropped up to a bound, then the connection is
 * cut, as nginx's lingering close does. A client still sending its body (Node's fetch on a large
 * one) then reads the answer; on a connection closed at once, its next write meets a reset, which
 * also drops the answer waiting unread on its side. An endless or slow body ends at the bound.
 */
export function drainAfterAnswer(incoming: IncomingMessage, outgoing: ServerResponse, bound: DrainBound): void {
  // HTTP/1.1 frames a body by one of these two headers: without either there is none.
  if (incoming.headers['content-length'] === undefined && incoming.headers['transfer-encoding'] === undefined) return;
  outgoing.once('finish', () => {
    if (incoming.complete || incoming.destroyed) return;
    let left = bound.bytes;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', onData).off('end', done).off('error', done).off('close', done);
    };
    const cut = () => {
      done();
      incoming.socket.destroy();
    };
    const onData = (chunk: Buffer) => {
      left -= chunk.byteLength;
      if (left < 0) cut();
    };
    const timer = setTimeout(cut, bound.ms);
    timer.unref();
    // Whoever still listens was reading the body for the answer already sent.
    incoming.removeAllListeners('data');
    incoming.on('data', onData).on('end', done).on('error', done).on('close', done);
    incoming.resume();
  });
}

export function startHttp(fetch: (req: Request, env: NodeBindings) => Response | Promise<Response>, config: Config): Promise<{ server: ServerType; url: string }> {
  // A refused body may be drained for as long as an accepted one may take to arrive, and up to a
  // few times the largest body any route takes (64 MiB at least, as @hono/node-server's own).
  const drain: DrainBound = { bytes: Math.max(64 * 1024 * 1024, 4 * config.bulkBodyLimitBytes), ms: config.bodyTimeoutMs };
  return new Promise((resolve, reject) => {
    const tls = config.tls;
    const server = serve(
      {
        // HTTP/1.1 only (no createSecureServer of http2), so the bindings are always Node's IncomingMessage and ServerResponse.
        fetch: (req, env) => {
          const node = env as Required<NodeBindings>;
          drainAfterAnswer(node.incoming, node.outgoing, drain);
          return fetch(req, node);
        },
        // The draining above, with its own bound, in place of @hono/node-server's (half a second: too short for a slow client).
        autoCleanupIncoming: false,
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
