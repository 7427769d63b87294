/**
 * The zones the server is authoritative for, by apex name. `find` picks the closest
 * enclosing zone of a query name (RFC 1034 §4.3.2 step 2), so a child zone hosted here
 * answers for its names rather than the parent's delegation. `setGen` grows whenever the
 * set of zones changes, which invalidates every cached answer's choice of zone.
 *
 * At start the zones load in the background (sync/startup-load.ts): every hosted name is `expect`ed first,
 * so a question for a zone not loaded yet never falls to a loaded parent (which would answer it
 * with a referral or NXDOMAIN); `loading` tells it apart, and it is answered SERVFAIL, which
 * resolvers retry elsewhere and do not cache as an answer.
 */
import type { Zone } from './zone';

export interface ZoneLookup {
  find(qname: string): Zone | undefined;
  /** Whether the zone that would answer `qname` is hosted but not loaded yet. */
  loading?(qname: string): boolean;
}

export class ZoneIndex implements ZoneLookup {
  private readonly zones = new Map<string, Zone>();
  /** Hosted zones not loaded yet (start-up). */
  private readonly pending = new Set<string>();
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
    // Loaded: the arena's room for more goes back (changes to come grow it again, a chunk at most).
    zone.nodes.trim();
    this.zones.set(zone.name, zone);
    this.pending.delete(zone.name);
    this.setGen++;
  }

  remove(name: string): void {
    const pending = this.pending.delete(name);
    if (this.zones.delete(name) || pending) this.setGen++;
  }

  /** Names of hosted zones about to be loaded. */
  expect(names: Iterable<string>): void {
    for (const name of names) if (!this.zones.has(name)) this.pending.add(name);
    this.setGen++;
  }

  /** Stops expecting what was never loaded (the store no longer holds it). */
  settle(): void {
    if (this.pending.size === 0) return;
    this.pending.clear();
    this.setGen++;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  loading(qname: string): boolean {
    if (this.pending.size === 0) return false;
    for (let n = qname; ;) {
      if (this.zones.has(n)) return false;
      if (this.pending.has(n)) return true;
      const dot = n.indexOf('.');
      if (dot < 0) return false;
      n = n.slice(dot + 1);
    }
  }

  find(qname: string): Zone | undefined {
    for (let n = qname; ;) {
      const zone = this.zones.get(n);
      if (zone) return zone;
      // A closer hosted zone still loading: not the parent's to answer.
      if (this.pending.size > 0 && this.pending.has(n)) return undefined;
      const dot = n.indexOf('.');
      if (dot < 0) return undefined;
      n = n.slice(dot + 1);
    }
  }
}
