/**
 * Zone change events, emitted by services after their transaction commits. The DNS
 * server keeps its in-memory index current from them (DESIGN.md §7: answers within 100 ms).
 */
import type { DomainRow } from '../store/types';

export type ZoneChange =
  | { kind: 'zone-deleted'; domain: DomainRow }
  /**
   * One change set was applied: records at these relative names changed (maybe none), the
   * zone row (serial, settings) is `domain`, and `keys` says whether its DNSSEC keys changed.
   */
  | { kind: 'zone-changed'; domain: DomainRow; names: string[]; keys: boolean };

export type ZoneListener = (change: ZoneChange) => void;

export class ZoneEvents {
  private readonly listeners = new Set<ZoneListener>();

  subscribe(listener: ZoneListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: ZoneChange): void {
    for (const l of this.listeners) l(change);
  }
}
