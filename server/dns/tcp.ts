/**
 * The TCP listener (RFC 7766): two-octet length framing, pipelined queries answered in
 * order on the same connection (§6.2.1.1), an idle timeout (§6.2.3), a limit on
 * connections per client address and in total (§8), and back-pressure so a client that
 * does not read cannot make the server buffer without bound.
 */
import net from 'node:net';
import { countDnsResponse } from '../metrics';

/** The answers to one message; a promise when they need the store (IXFR reads the history). */
export type TcpHandler = (msg: Buffer, address: string) => Buffer[] | Promise<Buffer[]>;

export interface TcpLimits {
  idleMs: number;
  perClient: number;
  total: number;
}

export const DEFAULT_TCP_LIMITS: TcpLimits = { idleMs: 10_000, perClient: 16, total: 1024 };

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
  const perClient = new Map<string, number>();
  const open = new Set<net.Socket>();
  let total = 0;

  const server = net.createServer((socket) => {
    const address = socket.remoteAddress ?? '';
    const mine = perClient.get(address) ?? 0;
    if (mine >= limits.perClient || total >= limits.total) {
      socket.destroy();
      return;
    }
    perClient.set(address, mine + 1);
    total++;
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      total--;
      const n = (perClient.get(address) ?? 1) - 1;
      if (n > 0) perClient.set(address, n);
      else perClient.delete(address);
    });
    socket.on('error', () => socket.destroy());
    socket.setNoDelay(true);
    socket.setTimeout(limits.idleMs, () => socket.destroy());

    // Chunks are joined only once a whole frame is there, so a client trickling bytes
    // costs one copy per frame, not one per chunk.
    let chunks: Buffer[] = [];
    let buffered = 0;
    let need = 2;
    // Back-pressure: once the client stops reading our answers, we stop reading (and
    // answering) its queries until it has taken them; pipelined queries wait in `chunks`.
    // An answer that needs the store holds the queries behind it too, so answers stay in order.
    let full = false;
    let waiting = false;
    const blocked = () => full || waiting;
    const send = (outs: Buffer[]) => {
      for (const out of outs) {
        countDnsResponse('tcp', out);
        if (!socket.write(frame(out))) full = true;
      }
    };
    const resume = () => {
      if (blocked() || socket.destroyed) return;
      need = 0;
      socket.resume();
      pump();
    };
    const pump = () => {
      if (buffered < need) return;
      const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
      let at = 0;
      while (!blocked() && all.length - at >= 2) {
        const length = all.readUInt16BE(at);
        if (length === 0) {
          socket.destroy();
          return;
        }
        if (all.length - at < length + 2) break;
        const msg = all.subarray(at + 2, at + 2 + length);
        at += length + 2;
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
      if (blocked()) socket.pause();
    };
    socket.on('data', (chunk: Buffer) => {
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
            for (const socket of open) socket.destroy();
          }),
      });
    });
  });
}
