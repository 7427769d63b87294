/**
 * Runs the DNS server in a worker thread (see worker.ts for why) and feeds it the zone
 * events of this process. An in-memory SQLite store cannot be shared with a thread, so with
 * `DATA_DIR=:memory:` the server runs in this thread instead. RFC 2136 updates, verified by the
 * DNS thread, and ALIAS serial bumps are applied here by `writes` (the services), like every other
 * write: the DNS thread only reads.
 */
import { Worker } from 'node:worker_threads';
import type { Config } from '../../config';
import type { Logger } from '../../log';
import { dnsDefences, dnsResponses, dnsThreadBackgroundFailures, snapshotFaults } from '../../counters';
import { dnsUdpThreads } from '../../metrics';
import type { ZoneChange, ZoneEvents } from '../../services/changes/events';
import type { ReadStore } from '../../store/types';
import { startDns, type DnsWrites } from '../server';
import type { FromWorker, ToWorker } from './thread-messages';
import type { StatsBatch } from '../../core/query-stats-fields';
import type { LoadProgress } from './sync-deps';

export interface DnsHandle {
  port: number;
  /** Zones loaded of all hosted (start-up); equal once loaded. */
  progress(): LoadProgress;
  close(): Promise<void>;
}

/** `writes` are the main thread's (see DnsWrites); `onStats` takes the per-zone query counts (STATS_DAYS) every STATS_FLUSH_MS. */
export async function startDnsThread(config: Config, store: ReadStore, events: ZoneEvents, log: Logger, writes: DnsWrites = {}, onStats?: (batch: StatsBatch) => void): Promise<DnsHandle | null> {
  if (config.dnsPort === null) return null;
  if (config.sqlitePath === ':memory:' && !config.databaseUrl) {
    const dns = await startDns(config, store, events, log, writes);
    if (dns && onStats) dns.stats?.start(config.statsFlushMs, onStats);
    if (dns) dnsUdpThreads.read = () => dns.udpThreads();
    return (
      dns && {
        port: dns.port,
        progress: () => dns.progress(),
        async close() {
          dns.stats?.stop(onStats);
          await dns.close();
        },
      }
    );
  }

  // Built (npm start), the thread's bundle sits beside the server's (scripts/build-server.mjs); run
  // from the TypeScript (tests in process), it boots tsx itself.
  const entry = import.meta.url.endsWith('.ts') ? './worker-boot.mjs' : './dns-worker.js';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData: { config, origin: events.origin } });
  // Zone changes go over in one message per turn of the event loop: a group commit's changes cost
  // one structured clone and one wake-up of the thread, not one each (a tenth of a record write's
  // time went to posting them singly). Anything else sent flushes them first, so an UPDATE is
  // answered only after the thread has its change.
  let pending: ZoneChange[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const changes = pending;
    pending = [];
    worker.postMessage({ type: 'changes', changes } satisfies ToWorker);
  };
  const send = (m: ToWorker) => {
    flush();
    worker.postMessage(m);
  };
  let progress: LoadProgress = { loaded: 0, total: 0 };
  let closing = false;
  let closed: (() => void) | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'ready') resolve(m.port);
      else if (m.type === 'failed') reject(new Error(m.message));
      else if (m.type === 'metrics') {
        dnsResponses.udp.set(m.udp);
        dnsResponses.tcp.set(m.tcp);
        dnsDefences.set(m.defences);
        snapshotFaults.set(m.snapshot);
        const udpThreads = m.udpThreads;
        dnsUdpThreads.read = () => udpThreads;
        for (const [job, n] of m.background) dnsThreadBackgroundFailures.set(job, n);
      } else if (m.type === 'loading') progress = { loaded: m.loaded, total: m.total };
      else if (m.type === 'alias-changed') writes.aliasChanged?.(m.zoneId);
      else if (m.type === 'notified') writes.notified?.(m.zoneId);
      else if (m.type === 'delegated') writes.delegated?.(m.zoneId, m.delegated);
      else if (m.type === 'update') {
        const done = (rcode: number) => send({ type: 'update-done', id: m.id, rcode });
        if (!writes.update)
          done(4); // NOTIMP
        else
          writes.update(m.request).then(done, (err: unknown) => {
            log.error({ err }, 'dynamic update failed');
            done(2); // SERVFAIL
          });
      } else if (m.type === 'stats') onStats?.(m.batch);
      else if (m.type === 'closed') closed?.();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (closing) return;
      // An authoritative server that silently stopped answering is worse than one that stops.
      log.fatal({ code }, 'the DNS thread stopped');
      process.exit(1);
    });
  });
  const unsubscribe = events.subscribe((change) => {
    if (pending.push(change) === 1) setImmediate(flush);
  });
  return {
    port,
    progress: () => progress,
    async close() {
      closing = true;
      unsubscribe();
      await new Promise<void>((resolve) => {
        closed = resolve;
        send({ type: 'close' });
        setTimeout(resolve, 5000).unref();
      });
      await worker.terminate();
    },
  };
}
