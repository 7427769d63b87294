/**
 * One TCP connection of the DNS listener (RFC 7766): two-octet length framing, pipelined queries
 * answered in order (§6.2.1.1), a deadline for each message from its first byte, an idle timer,
 * a lifetime and a most of messages, and back-pressure: once the client stops reading our
 * answers, we stop reading (and answering) its queries until it has taken them.
 */
import type net from 'node:net';
import { countDnsResponse } from '../../counters';
import type { Conn, ConnectionTable } from './tcp-clients';

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

function frame(msg: Buffer): Buffer {
  const out = Buffer.allocUnsafe(msg.length + 2);
  out.writeUInt16BE(msg.length, 0);
  msg.copy(out, 2);
  return out;
}

export class TcpConnection implements Conn {
  lastMessage = Date.now();
  private readonly address: string;
  // Chunks are joined only once a whole frame is there, so a client trickling bytes
  // costs one copy per frame, not one per chunk.
  private chunks: Buffer[] = [];
  private buffered = 0;
  private need = 2;
  private queries = 0;
  // Pipelined queries wait in `chunks` while the client does not read (`full`); an answer that
  // needs the store (`waiting`) holds the queries behind it too, so answers stay in order.
  private full = false;
  private waiting = false;
  /** Past its lifetime or query count the connection ends once what it is owed is sent. */
  private closing = false;
  private messageTimer: NodeJS.Timeout | null = null;
  private readonly lifetime: NodeJS.Timeout;

  constructor(
    readonly socket: net.Socket,
    readonly prefix: string,
    private readonly handle: TcpHandler,
    private readonly limits: TcpLimits,
    table: ConnectionTable,
  ) {
    this.address = socket.remoteAddress ?? '';
    table.add(this);
    this.lifetime = setTimeout(() => this.finish(), limits.lifetimeMs);
    socket.once('close', () => {
      clearTimeout(this.lifetime);
      if (this.messageTimer) clearTimeout(this.messageTimer);
      table.forget(this);
    });
    socket.on('error', () => socket.destroy());
    socket.setNoDelay(true);
    socket.setTimeout(limits.idleMs, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => this.data(chunk));
    socket.on('drain', () => this.drain());
  }

  answering(): boolean {
    return this.waiting || this.full || this.socket.writableLength > 0;
  }

  private data(chunk: Buffer): void {
    if (this.closing) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.pump();
  }

  private drain(): void {
    if (!this.full) return;
    this.full = false;
    this.resume();
  }

  private blocked(): boolean {
    return this.full || this.waiting;
  }

  private finish(): void {
    this.closing = true;
    if (!this.waiting) this.socket.end();
  }

  /** Answers every whole message buffered, in order, until the connection is blocked or closing. */
  private pump(): void {
    if (this.buffered < this.need) return this.deadline();
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    let at = 0;
    while (!this.blocked() && !this.closing && all.length - at >= 2) {
      const length = all.readUInt16BE(at);
      if (length === 0) {
        this.socket.destroy();
        return;
      }
      if (all.length - at < length + 2) break;
      const msg = all.subarray(at + 2, at + 2 + length);
      at += length + 2;
      this.answer(msg);
    }
    const rest = all.subarray(at);
    this.chunks = rest.length > 0 ? [Buffer.from(rest)] : [];
    this.buffered = rest.length;
    this.need = this.blocked() ? Infinity : rest.length >= 2 ? rest.readUInt16BE(0) + 2 : 2;
    if (this.closing && !this.waiting) this.socket.end();
    else if (this.blocked()) this.socket.pause();
    this.deadline();
  }

  /** One complete message: answered now, or (a promise) once its answer is ready, the messages behind it waiting. */
  private answer(msg: Buffer): void {
    this.lastMessage = Date.now();
    // A complete message: the next one has its own deadline.
    if (this.messageTimer) clearTimeout(this.messageTimer);
    this.messageTimer = null;
    if (++this.queries >= this.limits.maxQueries) this.closing = true;
    const outs = this.handle(msg, this.address);
    if (Array.isArray(outs)) {
      this.send(outs);
      return;
    }
    this.waiting = true;
    outs.then(
      (list) => {
        this.waiting = false;
        if (this.socket.destroyed) return;
        this.send(list);
        this.resume();
      },
      () => this.socket.destroy(),
    );
  }

  private send(outs: Buffer[]): void {
    for (const out of outs) {
      countDnsResponse('tcp', out);
      if (!this.socket.write(frame(out))) this.full = true;
    }
  }

  private resume(): void {
    if (this.blocked() || this.socket.destroyed) return;
    if (this.closing) {
      this.socket.end();
      return;
    }
    this.need = 0;
    this.socket.resume();
    this.pump();
  }

  /** A message begun must end within messageMs of its first byte (RFC 7766 §6.2.3). */
  private deadline(): void {
    // Only a message still arriving runs against it (not ones waiting behind an answer).
    const arriving = this.buffered > 0 && !this.blocked();
    if (arriving && !this.messageTimer) this.messageTimer = setTimeout(() => this.socket.destroy(), this.limits.messageMs);
    else if (!arriving && this.messageTimer) {
      clearTimeout(this.messageTimer);
      this.messageTimer = null;
    }
  }
}
