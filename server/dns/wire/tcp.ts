/**
 * The TCP listener (RFC 7766): two-octet length framing, pipelined queries answered in
 * order on the same connection (§6.2.1.1), and the defences of §6.2.3 and §8 against clients
 * that hold connections open:
 *
 * - a message must arrive whole within `messageMs` of its first byte, however slowly the bytes
 *   trickle in (an idle timer alone restarts on every byte);
 * - `idleMs` between messages, `lifetimeMs` per connection (a transfer being sent finishes
 *   first) and `maxQueries` messages per connection;
 * - connections counted per client prefix (/24 for IPv4, /56 for IPv6: one address or 64 of
 *   them are the same client) and in total; when either is full, the connection that has gone
 *   longest without a complete message (and is not sending an answer) is closed to make room,
 *   rather than the newcomer refused — a trickler is always the one that goes;
 * - back-pressure, so a client that does not read cannot make the server buffer without bound.
 */
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { countDnsResponse } from '../../metrics';

/** The answers to one message; a promise when they need the store (IXFR reads the history). */
export type TcpHandler = (msg: Buffer, address: string) => Buffer[] | Promise<Buffer[]>;

export interface TcpLimits {
  idleMs: number;
  /** Time for one message to arrive whole, from its first byte. */
  messageMs: number;
  /** Longest a connection stays open. */
  lifetimeMs: number;
  /** Most messages one connection may carry. */
  maxQueries: number;
  /** Connections per client prefix (/24, /56). */
  perClient: number;
  total: number;
}

export const DEFAULT_TCP_LIMITS: TcpLimits = { idleMs: 10_000, messageMs: 5_000, lifetimeMs: 120_000, maxQueries: 10_000, perClient: 16, total: 1024 };

/** The client a connection counts against: its /24 (IPv4, IPv4-mapped too) or /56 (IPv6). */
export function clientPrefix(address: string): string {
  try {
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    const bytes = ip.toByteArray();
    return ip.kind() === 'ipv4' ? `${bytes.slice(0, 3).join('.')}.0/24` : `${Buffer.from(bytes.slice(0, 7)).toString('hex')}/56`;
  } catch {
    return address;
  }
}

/** What the listener knows of one open connection, to choose which to close when full. */
interface Conn {
  socket: net.Socket;
  prefix: string;
  /** When its last complete message came (its opening, before the first). */
  lastMessage: number;
  /** Whether it is sending an answer (or waiting for one): never closed to make room then. */
  answering(): boolean;
}

function frame(msg: Buffer): Buffer {
  const out = Buffer.allocUnsafe(msg.length + 2);
  out.writeUInt16BE(msg.length, 0);
  msg.copy(out, 2);
  return out;
}

export interface TcpListener {
  server: net.Server;
  /** Stops listening and ends every open connection (without waiting for idle timeouts). */
  close(): Promise<void>;
}

export function listenTcp(host: string, port: number, handle: TcpHandler, limits: TcpLimits = DEFAULT_TCP_LIMITS): Promise<TcpListener> {
  const byPrefix = new Map<string, Set<Conn>>();
  const open = new Set<Conn>();

  /** Closes the connection among these that has gone longest without a message and is not answering; false if none may go. */
  function makeRoom(among: Iterable<Conn>): boolean {
    let oldest: Conn | null = null;
    for (const c of among) if (!c.answering() && (!oldest || c.lastMessage < oldest.lastMessage)) oldest = c;
    if (!oldest) return false;
    oldest.socket.destroy();
    forget(oldest);
    return true;
  }

  function forget(c: Conn): void {
    if (!open.delete(c)) return;
    const set = byPrefix.get(c.prefix);
    set?.delete(c);
    if (set?.size === 0) byPrefix.delete(c.prefix);
  }

  const server = net.createServer((socket) => {
    const address = socket.remoteAddress ?? '';
    const prefix = clientPrefix(address);
    const mine = byPrefix.get(prefix);
    if ((mine && mine.size >= limits.perClient && !makeRoom(mine)) || (open.size >= limits.total && !makeRoom(open))) {
      socket.destroy();
      return;
    }
    // Chunks are joined only once a whole frame is there, so a client trickling bytes
    // costs one copy per frame, not one per chunk.
    let chunks: Buffer[] = [];
    let buffered = 0;
    let need = 2;
    let queries = 0;
    // Back-pressure: once the client stops reading our answers, we stop reading (and
    // answering) its queries until it has taken them; pipelined queries wait in `chunks`.
    // An answer that needs the store holds the queries behind it too, so answers stay in order.
    let full = false;
    let waiting = false;
    // Past its lifetime or query count the connection ends once what it is owed is sent.
    let closing = false;
    const conn: Conn = { socket, prefix, lastMessage: Date.now(), answering: () => waiting || full || socket.writableLength > 0 };
    open.add(conn);
    const set = byPrefix.get(prefix) ?? byPrefix.set(prefix, new Set()).get(prefix)!;
    set.add(conn);

    let messageTimer: NodeJS.Timeout | null = null;
    const lifetime = setTimeout(() => finish(), limits.lifetimeMs);
    const finish = () => {
      closing = true;
      if (!waiting) socket.end();
    };
    socket.once('close', () => {
      clearTimeout(lifetime);
      if (messageTimer) clearTimeout(messageTimer);
      forget(conn);
    });
    socket.on('error', () => socket.destroy());
    socket.setNoDelay(true);
    socket.setTimeout(limits.idleMs, () => socket.destroy());

    const blocked = () => full || waiting;
    const send = (outs: Buffer[]) => {
      for (const out of outs) {
        countDnsResponse('tcp', out);
        if (!socket.write(frame(out))) full = true;
      }
    };
    const resume = () => {
      if (blocked() || socket.destroyed) return;
      if (closing) {
        socket.end();
        return;
      }
      need = 0;
      socket.resume();
      pump();
    };
    /** A message begun must end within messageMs of its first byte (RFC 7766 §6.2.3). */
    const deadline = () => {
      // Only a message still arriving runs against it (not ones waiting behind an answer).
      const arriving = buffered > 0 && !blocked();
      if (arriving && !messageTimer) messageTimer = setTimeout(() => socket.destroy(), limits.messageMs);
      else if (!arriving && messageTimer) {
        clearTimeout(messageTimer);
        messageTimer = null;
      }
    };
    const pump = () => {
      if (buffered < need) return deadline();
      const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
      let at = 0;
      while (!blocked() && !closing && all.length - at >= 2) {
        const length = all.readUInt16BE(at);
        if (length === 0) {
          socket.destroy();
          return;
        }
        if (all.length - at < length + 2) break;
        const msg = all.subarray(at + 2, at + 2 + length);
        at += length + 2;
        conn.lastMessage = Date.now();
        // A complete message: the next one has its own deadline.
        if (messageTimer) clearTimeout(messageTimer);
        messageTimer = null;
        if (++queries >= limits.maxQueries) closing = true;
        const outs = handle(msg, address);
        if (Array.isArray(outs)) send(outs);
        else {
          waiting = true;
          outs.then(
            (list) => {
              waiting = false;
              if (socket.destroyed) return;
              send(list);
              resume();
            },
            () => socket.destroy(),
          );
        }
      }
      const rest = all.subarray(at);
      chunks = rest.length > 0 ? [Buffer.from(rest)] : [];
      buffered = rest.length;
      need = blocked() ? Infinity : rest.length >= 2 ? rest.readUInt16BE(0) + 2 : 2;
      if (closing && !waiting) socket.end();
      else if (blocked()) socket.pause();
      deadline();
    };
    socket.on('data', (chunk: Buffer) => {
      if (closing) return;
      chunks.push(chunk);
      buffered += chunk.length;
      pump();
    });
    socket.on('drain', () => {
      if (!full) return;
      full = false;
      resume();
    });
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
            for (const c of open) c.socket.destroy();
          }),
      });
    });
  });
}
