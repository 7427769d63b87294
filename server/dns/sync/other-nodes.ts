/**
 * Zone changes made by other nodes (and by the CLI) on a shared database, applied as they
 * commit (every node's DNS answers within 1 s). Each message goes through the
 * same path as this process's own events (apply-events.ts); this process's own messages are skipped,
 * since its DNS has those events already. After every (re)connect of the feed, a
 * reconciliation of serials catches up on whatever was published while it was away. The
 * periodic reconciliation (reconcile.ts) stays as the safety net.
 */
import type { Logger } from '../../log';
import type { ZoneEvents } from '../../services/changes/events';
import { decodeZoneMessage } from '../../services/changes/zone-messages';
import type { Feed, ReadStore } from '../../store/types';
import type { ZoneSync } from './zone-sync';

/** Follows the store's feed when it has one (PostgreSQL); null on a store only one node uses. */
export function followOtherNodes(store: ReadStore, events: ZoneEvents, sync: ZoneSync, log: Logger): Feed | null {
  if (!store.listen) return null;
  let connects = 0;
  return store.listen({
    message(payload) {
      const m = decodeZoneMessage(payload);
      if (!m) log.warn({ bytes: payload.length }, 'ignored a zone message this version cannot read');
      else if (m.origin !== events.origin) events.emit(m.change);
    },
    connected() {
      log.info({ reconnect: connects++ > 0 }, 'following zone changes of other nodes');
      // Also the first time: changes committed between the initial load and the LISTEN.
      void sync.reconcile();
    },
    disconnected(err) {
      log.warn({ err }, 'lost the feed of zone changes from other nodes; reconnecting');
    },
  });
}
