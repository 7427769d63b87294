/**
 * Zone change events, emitted by services after their transaction commits. The DNS
 * server keeps its in-memory index current from them (answers within 100 ms).
 */
import { randomUUID } from 'node:crypto';
import type { DomainRow } from '../../store/types';

export type ZoneChange =
  | { kind: 'zone-deleted'; domain: DomainRow }
  /**
   * One change set was applied: records at these relative names changed (maybe none), the
   * zone row (serial, settings) is `domain`, and `keys` says whether its DNSSEC keys changed.
   * `reload`: too many names to list (a message from another node); read the whole zone again.
   */
  | { kind: 'zone-changed'; domain: DomainRow; names: string[]; keys: boolean; reload?: boolean };

export type ZoneListener = (change: ZoneChange) => void;

export class ZoneEvents {
  private readonly listeners = new Set<ZoneListener>();

  /**
   * Names this process in the zone messages it publishes to every node (zone-messages.ts), so
   * that its DNS thread, which gets these events directly, skips its own. The thread's bus takes
   * the main thread's origin.
   */
  constructor(readonly origin: string = randomUUID()) {}

  subscribe(listener: ZoneListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: ZoneChange): void {
    for (const l of this.listeners) l(change);
  }
}
