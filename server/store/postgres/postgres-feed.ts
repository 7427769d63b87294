/**
 * LISTEN for what every node publishes, on a connection of its own (a pooled one would be
 * handed to other queries and lose the LISTEN). A dropped connection — a restart, a failover,
 * `pg_terminate_backend` — is opened again with exponential backoff, and `connected` fires
 * after every (re)connect so the caller can catch up on what it missed: NOTIFY is not queued
 * for a session that is not there. A heartbeat (LISTEN again, a no-op) finds a connection
 * that died without a word (a network partition) within seconds rather than TCP's minutes.
 */
import pg from 'pg';
import type { Feed, FeedHandlers } from '../types';

export interface FeedOptions {
  firstDelayMs?: number;
  maxDelayMs?: number;
  heartbeatMs?: number;
}

export function listenPostgres(url: string, channel: string, handlers: FeedHandlers, opts: FeedOptions = {}): Feed {
  const firstDelay = opts.firstDelayMs ?? 100;
  const maxDelay = opts.maxDelayMs ?? 5000;
  const heartbeatMs = opts.heartbeatMs ?? 10_000;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`channel ${channel} is not a plain identifier`);
  const listen = `LISTEN ${channel}`;
  let client: pg.Client | null = null;
  let failures = 0;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const dead = new WeakSet<pg.Client>();

  function drop(c: pg.Client, err: unknown): void {
    if (dead.has(c)) return;
    dead.add(c);
    if (client === c) {
      client = null;
      clearInterval(heartbeat);
    }
    c.removeAllListeners('notification');
    void c.end().catch(() => {});
    if (closed) return;
    handlers.disconnected(err);
    // Full jitter on an exponential delay: nodes cut off together do not come back together.
    const delay = Math.min(maxDelay, firstDelay * 2 ** failures++) * (0.5 + Math.random() / 2);
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5000, query_timeout: 5000, application_name: 'zonedeck feed' });
    // Errors after the drop (a late socket error) must not crash the process: keep a listener.
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c, new Error('the connection closed')));
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) handlers.message(n.payload);
    });
    try {
      await c.connect();
      await c.query(listen);
    } catch (err) {
      drop(c, err);
      return;
    }
    if (closed || dead.has(c)) {
      dead.add(c);
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
    heartbeat = setInterval(() => void c.query(listen).catch((err: unknown) => drop(c, err)), heartbeatMs);
    heartbeat.unref();
    handlers.connected();
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const c = client;
      client = null;
      if (c) {
        dead.add(c);
        await c.end().catch(() => {});
      }
    },
  };
}
