/**
 * The TCP listener (RFC 7766): each connection a TcpConnection (tcp-connection.ts: framing,
 * pipelining, back-pressure), and the defences of §6.2.3 and §8 against clients that hold
 * connections open:
 *
 * - a message must arrive whole within `messageMs` of its first byte, however slowly the bytes
 *   trickle in (an idle timer alone restarts on every byte);
 * - `idleMs` between messages, `lifetimeMs` per connection (a transfer being sent finishes
 *   first) and `maxQueries` messages per connection;
 * - connections counted per client prefix (/24 for IPv4, /56 for IPv6) and in total; when either
 *   is full, the connection that has gone longest without a complete message (and is not sending
 *   an answer) is closed to make room (tcp-clients.ts);
 * - back-pressure, so a client that does not read cannot make the server buffer without bound.
 */
import net from 'node:net';
import { ConnectionTable } from './tcp-clients';
import { TcpConnection, type TcpHandler, type TcpLimits } from './tcp-connection';

export type { TcpHandler, TcpLimits } from './tcp-connection';

export const DEFAULT_TCP_LIMITS: TcpLimits = { idleMs: 10_000, messageMs: 5_000, lifetimeMs: 120_000, maxQueries: 10_000, perClient: 16, total: 1024 };

export interface TcpListener {
  server: net.Server;
  /** Stops listening and ends every open connection (without waiting for idle timeouts). */
  close(): Promise<void>;
}

export function listenTcp(host: string, port: number, handle: TcpHandler, limits: TcpLimits = DEFAULT_TCP_LIMITS): Promise<TcpListener> {
  const table = new ConnectionTable(limits);
  const server = net.createServer((socket) => {
    const prefix = table.room(socket.remoteAddress ?? '');
    if (prefix === null) socket.destroy();
    else new TcpConnection(socket, prefix, handle, limits, table);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve({
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            table.destroyAll();
          }),
      });
    });
  });
}
