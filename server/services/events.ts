/**
 * Zone change events, emitted by services after their transaction commits. The DNS
 * server keeps its in-memory index current from them (DESIGN.md §7: answers within 100 ms).
 */
import type { DomainRow } from '../store/types';

export type ZoneChange =
  | { kind: 'zone-upserted'; domain: DomainRow }
  | { kind: 'zone-deleted'; domain: DomainRow }
  /** Records at these relative names changed; the new serial is in `domain`. */
  | { kind: 'records-changed'; domain: DomainRow; names: string[] };

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
