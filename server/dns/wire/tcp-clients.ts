/**
 * The TCP listener's open connections, counted per client prefix (client-prefix.ts) and in
 * total (RFC 7766 §6.2.3, §8). When either count is full, the connection that has gone longest
 * without a complete message (and is not sending an answer) is closed to make room, rather than
 * the newcomer refused: a trickler is always the one that goes.
 */
import type net from 'node:net';
import { clientPrefix } from './client-prefix';

/** What the table knows of one open connection, to choose which to close when full. */
export interface Conn {
  readonly socket: net.Socket;
  readonly prefix: string;
  /** When its last complete message came (its opening, before the first). */
  readonly lastMessage: number;
  /** Whether it is sending an answer (or waiting for one): never closed to make room then. */
  answering(): boolean;
}

export class ConnectionTable {
  private readonly byPrefix = new Map<string, Set<Conn>>();
  private readonly open = new Set<Conn>();

  constructor(private readonly limits: { perClient: number; total: number }) {}

  /** The prefix a connection from `address` counts under, when there is room for it (made if need be); null when there is none. */
  room(address: string): string | null {
    const prefix = clientPrefix(address);
    const mine = this.byPrefix.get(prefix);
    if (mine && mine.size >= this.limits.perClient && !this.makeRoom(mine)) return null;
    if (this.open.size >= this.limits.total && !this.makeRoom(this.open)) return null;
    return prefix;
  }

  add(c: Conn): void {
    this.open.add(c);
    const set = this.byPrefix.get(c.prefix) ?? this.byPrefix.set(c.prefix, new Set()).get(c.prefix)!;
    set.add(c);
  }

  forget(c: Conn): void {
    if (!this.open.delete(c)) return;
    const set = this.byPrefix.get(c.prefix);
    set?.delete(c);
    if (set?.size === 0) this.byPrefix.delete(c.prefix);
  }

  /** Ends every open connection (the listener closes). */
  destroyAll(): void {
    for (const c of this.open) c.socket.destroy();
  }

  /** Closes the connection among these that has gone longest without a message and is not answering; false if none may go. */
  private makeRoom(among: Iterable<Conn>): boolean {
    let oldest: Conn | null = null;
    for (const c of among) if (!c.answering() && (!oldest || c.lastMessage < oldest.lastMessage)) oldest = c;
    if (!oldest) return false;
    oldest.socket.destroy();
    this.forget(oldest);
    return true;
  }
}
