/** Starts the HTTP(S) listener for the app; with TLS_CERT/TLS_KEY it serves HTTPS only. */
import fs from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Config } from './config';

export function startHttp(fetch: (req: Request, env?: unknown) => Response | Promise<Response>, config: Config): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve, reject) => {
    const tls = config.tls;
    const server = serve(
      {
        fetch,
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
    server.once('error', reject);
  });
}
