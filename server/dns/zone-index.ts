/**
 * The zones the server is authoritative for, by apex name. `find` picks the closest
 * enclosing zone of a query name (RFC 1034 §4.3.2 step 2), so a child zone hosted here
 * answers for its names rather than the parent's delegation. `setGen` grows whenever the
 * set of zones changes, which invalidates every cached answer's choice of zone.
 */
import type { Zone } from './zone';

export interface ZoneLookup {
  find(qname: string): Zone | undefined;
}

export class ZoneIndex implements ZoneLookup {
  private readonly zones = new Map<string, Zone>();
  setGen = 0;

  get size(): number {
    return this.zones.size;
  }

  get(name: string): Zone | undefined {
    return this.zones.get(name);
  }

  all(): IterableIterator<Zone> {
    return this.zones.values();
  }

  put(zone: Zone): void {
    this.zones.set(zone.name, zone);
    this.setGen++;
  }

  remove(name: string): void {
    if (this.zones.delete(name)) this.setGen++;
  }

  find(qname: string): Zone | undefined {
    for (let n = qname; ; ) {
      const zone = this.zones.get(n);
      if (zone) return zone;
      const dot = n.indexOf('.');
      if (dot < 0) return undefined;
      n = n.slice(dot + 1);
    }
  }
}
