/**
 * The DNS server in its own thread. API writes run SQLite commits (with fsync) on the main
 * event loop; sharing that loop, DNS fell from ~54,000 to ~150 queries/s under API load. Here
 * it has a loop (and a core) of its own: it opens its own connection to the store (readers
 * never wait for writers in WAL mode or PostgreSQL) and receives the main thread's zone events.
 * That connection is read-only in the database itself (`openReadStore`): this thread migrates and
 * seals nothing, holds no write method, and posts what must be written to the main thread.
 * A composition root, like server/main.ts: it opens the store and wires the DNS server to it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config';
import type { UpdateRequest } from '../../services/changes/dynamic-updates';
import { createLogger } from '../../log';
import { backgroundFailureCounts, dnsDefences, dnsResponses, snapshotFaults } from '../../counters';
import { ZoneEvents } from '../../services/changes/events';
import { openReadStore } from '../../store/open';
import { followOtherNodes } from './other-nodes';
import { startDns } from '../server';
import type { StatsBatch } from '../../core/query-stats-fields';
import type { FromWorker, ToWorker } from './thread-messages';

async function main(): Promise<void> {
  const port = parentPort!;
  const post = (m: FromWorker) => port.postMessage(m);
  const { config, origin } = workerData as { config: Config; origin: string };
  const log = createLogger(config.logLevel);
  const store = await openReadStore(config);
  // The main thread's origin: the messages it publishes come back here and are skipped.
  const events = new ZoneEvents(origin);
  const updates = new Map<number, (rcode: number) => void>();
  let nextId = 0;
  const update = (request: UpdateRequest) =>
    new Promise<number>((resolve) => {
      const id = ++nextId;
      updates.set(id, resolve);
      post({ type: 'update', id, request });
    });
  port.on('message', (m: ToWorker) => {
    if (m.type === 'changes') for (const change of m.changes) events.emit(change);
    else if (m.type === 'update-done') {
      updates.get(m.id)?.(m.rcode);
      updates.delete(m.id);
    } else void close();
  });
  // This thread writes nothing itself: updates, ALIAS serials and delegation flags go to the main thread's change sets.
  const dns = (await startDns(config, store, events, log, {
    update,
    aliasChanged: (zoneId) => post({ type: 'alias-changed', zoneId }),
    notified: (zoneId) => post({ type: 'notified', zoneId }),
    delegated: (zoneId, delegated) => post({ type: 'delegated', zoneId, delegated }),
    loading: (p) => post({ type: 'loading', ...p }),
  }))!;
  const others = followOtherNodes(store, events, dns.sync, log);
  const metrics = setInterval(
    () =>
      post({ type: 'metrics', udp: dnsResponses.udp, tcp: dnsResponses.tcp, defences: dnsDefences, snapshot: snapshotFaults, udpThreads: dns.udpThreads(), background: [...backgroundFailureCounts] }),
    1000,
  );
  metrics.unref();
  const flushStats = (batch: StatsBatch) => post({ type: 'stats', batch });
  dns.stats?.start(config.statsFlushMs, flushStats);
  async function close() {
    clearInterval(metrics);
    dns.stats?.stop(flushStats);
    await others?.close();
    await dns.close();
    await store.close();
    post({ type: 'closed' });
  }
  post({ type: 'ready', port: dns.port });
}

main().catch((err) => parentPort!.postMessage({ type: 'failed', message: err instanceof Error ? err.message : String(err) } satisfies FromWorker));
