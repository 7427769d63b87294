/**
 * Zone changes as the messages every node receives: published inside the
 * transaction that makes the change (`Repos.publish`, PostgreSQL NOTIFY: delivered on commit,
 * in commit order, never for a rollback), applied by each node's DNS thread like its own events.
 * A message names the process that sent it, so that process's DNS thread skips it (it has the
 * event already). NOTIFY carries at most 8,000 bytes: a change to more names than fit is sent
 * as "reload the zone".
 */
import type { ServiceRepos } from '../../store/types';
import type { ZoneChange, ZoneEvents } from './events';

/** PostgreSQL's NOTIFY payload limit is 8,000 bytes; leave room. */
export const MAX_MESSAGE_BYTES = 7900;

const VERSION = 1;

export interface ZoneMessage {
  origin: string;
  change: ZoneChange;
}

export function encodeZoneMessage(origin: string, change: ZoneChange): string {
  const text = JSON.stringify({ v: VERSION, origin, change });
  if (Buffer.byteLength(text) <= MAX_MESSAGE_BYTES || change.kind !== 'zone-changed') return text;
  return JSON.stringify({ v: VERSION, origin, change: { ...change, names: [], reload: true } });
}

/** The message, or null for one this version does not read (a newer node's, or garbage). */
export function decodeZoneMessage(payload: string): ZoneMessage | null {
  let m: unknown;
  try {
    m = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null) return null;
  const { v, origin, change } = m as { v?: unknown; origin?: unknown; change?: Partial<ZoneChange> };
  if (v !== VERSION || typeof origin !== 'string' || typeof change !== 'object' || change === null) return null;
  if (typeof change.domain?.id !== 'number' || typeof change.domain.name !== 'string') return null;
  if (change.kind === 'zone-deleted') return { origin, change: change as ZoneChange };
  if (change.kind === 'zone-changed' && Array.isArray(change.names)) return { origin, change: change as ZoneChange };
  return null;
}

/** Publishes a change to every node from inside the transaction that makes it. */
export function publishZoneChange(tx: Pick<ServiceRepos, 'publish'>, events: ZoneEvents, change: ZoneChange): Promise<void> {
  return tx.publish(() => encodeZoneMessage(events.origin, change));
}
