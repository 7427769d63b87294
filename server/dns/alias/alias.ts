/**
 * ALIAS (CNAME flattening): the DNS server looks each target's A and AAAA up
 * through `RESOLVER` and hands every name aliasing it, in any zone, the addresses, which the zone
 * keeps as RRsets at that name (zone.ts), so answers, online signing and transfers treat them as
 * any other data. One cache entry per target and type, whatever the number of names using it:
 *
 * - kept for the target's TTL, held between a floor (a 5-second CDN TTL would otherwise have
 *   us ask every few seconds) and a cap (a day-long TTL would hide a change for a day);
 * - refreshed ahead of expiry (at 3/4 of it), so answers never wait for the resolver;
 * - served with the lesser of that TTL and the ALIAS record's own;
 * - a target without addresses of a type (NXDOMAIN, NODATA: an IPv4-only CDN asked for AAAA)
 *   is NODATA at the name: that is the truth, and resolvers cache it as the target's SOA says;
 * - a resolver that does not answer (timeout, SERVFAIL) keeps the last addresses served, for up
 *   to a day with a 30-second TTL (serve-stale, RFC 8767 §4), retried every few seconds; with
 *   nothing to serve the name answers SERVFAIL, which resolvers retry soon and route around
 *   (to a secondary holding the last transfer), where a NODATA would be cached for the SOA minimum.
 */
import { type RRset } from '../index/rrset';
import { T } from '../index/rrset';
import { lookupAddresses, type Lookup } from './alias-lookup';
import type { Secondary } from '../transfer/notify';
import type { AliasWatcher, Zone } from '../index/zone';
import { isPublicAddress } from '../../core/ip-range';

export interface AliasOptions {
  /** RESOLVER; null: every ALIAS is unavailable (the API refuses new ones without it). */
  resolver: Secondary | null;
  /** Whether a zone object is still the one the server answers from (reloads replace zones). */
  isCurrent(zone: Zone): boolean;
  /** Seconds: the least and most a target's addresses are kept (defaults 30 and 3600). */
  floorTtl?: number;
  capTtl?: number;
  /** Milliseconds between attempts while the resolver fails (default 5000). */
  retryMs?: number;
  /** How long past expiry the last addresses are still served while the resolver fails (default a day). */
  staleMs?: number;
  lookup?(resolver: Secondary, name: string, type: 'A' | 'AAAA'): Promise<Lookup>;
  clock?(): number;
  /** A zone's addresses changed from one known set to another (not on a first lookup): time for a new serial. */
  onChange?(zone: Zone): void;
  /** ALIAS_ALLOW_PRIVATE: keep private, loopback, link-local and ULA addresses (default: drop them). */
  allowPrivate?: boolean;
  /** A target could not be looked up (for the log, once per streak of failures and again when stale addresses run out). */
  onFailure?(target: string, type: 'A' | 'AAAA', reason: string, serving: boolean): void;
}

/** How long a freshly watched zone may take to be loaded into the index. */
const GRACE_MS = 60_000;

/** RFC 8767 §4: the TTL of data served past its expiry (30 seconds recommended). */
export const STALE_TTL = 30;

const TYPES = [
  [T.A, 'A'],
  [T.AAAA, 'AAAA'],
] as const;

interface Entry {
  /** Sorted addresses of the last answer (empty: the target has none of this type); null before any answer. */
  addresses: string[] | null;
  /** Clamped TTL of the last answer, seconds. */
  ttl: number;
  expiresAt: number;
  busy: boolean;
  /** Whether the last attempt failed, and whether stale addresses were still served then: the log hears of changes only. */
  failing?: { serving: boolean };
  timer?: NodeJS.Timeout;
}

export class AliasResolver implements AliasWatcher {
  /** The zones with an ALIAS, by zone name: the object last watched (reloads replace it) and when. */
  private readonly zones = new Map<string, { zone: Zone; at: number }>();
  /** By target, then by type code. */
  private readonly targets = new Map<string, Map<number, Entry>>();
  /** By target, then by zone name: the names that aliased it when watched (checked again on use). */
  private readonly owners = new Map<string, Map<string, Set<string>>>();
  private closed = false;
  private readonly floor: number;
  private readonly cap: number;
  private readonly retryMs: number;
  private readonly staleMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AliasOptions) {
    this.floor = options.floorTtl ?? 30;
    this.cap = options.capTtl ?? 3600;
    this.retryMs = options.retryMs ?? 5000;
    this.staleMs = options.staleMs ?? 86_400_000;
    this.now = options.clock ?? Date.now;
  }

  /**
   * The ALIAS at `owner` was set or changed (every ALIAS of the zone without `owner`): hand it
   * what is known now, and look its target up if needed.
   */
  watch(zone: Zone, owner?: string): void {
    if (this.closed || zone.aliases.size === 0) return;
    this.zones.set(zone.name, { zone, at: this.now() });
    for (const name of owner === undefined ? [...zone.aliases.keys()] : [owner]) {
      const target = zone.aliases.get(name)?.target;
      if (target === undefined) continue;
      let entries = this.targets.get(target);
      if (!entries) {
        entries = new Map();
        this.targets.set(target, entries);
      }
      let byZone = this.owners.get(target);
      if (!byZone) {
        byZone = new Map();
        this.owners.set(target, byZone);
      }
      const names = byZone.get(zone.name);
      if (names) names.add(name);
      else byZone.set(zone.name, new Set([name]));
      for (const [code, type] of TYPES) {
        let e = entries.get(code);
        if (!e) {
          e = { addresses: null, ttl: 0, expiresAt: 0, busy: false };
          entries.set(code, e);
          void this.refresh(target, code, type);
        }
        this.apply(zone, name, code, e);
      }
    }
  }

  /** Stops every refresh (server shutdown). */
  close(): void {
    this.closed = true;
    for (const entries of this.targets.values()) for (const e of entries.values()) clearTimeout(e.timer);
    this.targets.clear();
    this.owners.clear();
    this.zones.clear();
  }

  /**
   * The names answering from `target`, with their zones; zones gone from the server or without an
   * ALIAS any more are forgotten. A zone is watched while it is being loaded, before the server
   * answers from it, so only one watched a while ago is judged by whether the server still uses it.
   */
  private users(target: string): { zone: Zone; owner: string }[] {
    const out: { zone: Zone; owner: string }[] = [];
    const byZone = this.owners.get(target);
    if (!byZone) return out;
    const settled = this.now() - GRACE_MS;
    for (const [name, owners] of byZone) {
      const watched = this.zones.get(name);
      if (!watched || watched.zone.aliases.size === 0 || (watched.at < settled && !this.options.isCurrent(watched.zone))) {
        this.zones.delete(name);
        byZone.delete(name);
        continue;
      }
      for (const owner of owners) {
        if (watched.zone.aliases.get(owner)?.target === target) out.push({ zone: watched.zone, owner });
        else owners.delete(owner);
      }
      if (owners.size === 0) byZone.delete(name);
    }
    return out;
  }

  /** What the ALIAS at `owner` serves for one type from an entry: addresses, NODATA, or SERVFAIL. */
  private apply(zone: Zone, owner: string, code: number, e: Entry): void {
    const alias = zone.aliases.get(owner);
    if (!alias) return;
    const now = this.now();
    if (e.addresses === null || now > e.expiresAt + this.staleMs) return zone.setAliasAddresses(owner, code, 'unavailable');
    const before = zone.aliasUnavailable(owner, code) ? null : (zone.nodes.get(owner)?.get(code)?.data ?? []).join(' ');
    if (e.addresses.length === 0) zone.setAliasAddresses(owner, code, 'none');
    else {
      const ttl = now > e.expiresAt ? STALE_TTL : Math.min(e.ttl, alias.ttl);
      const set: RRset = { name: owner, type: code, ttl, data: e.addresses };
      zone.setAliasAddresses(owner, code, set);
    }
    if (before !== null && before !== e.addresses.join(' ')) this.options.onChange?.(zone);
  }

  private schedule(target: string, code: number, type: 'A' | 'AAAA', e: Entry, ms: number): void {
    clearTimeout(e.timer);
    e.timer = setTimeout(() => void this.refresh(target, code, type), ms);
    e.timer.unref();
  }

  private async refresh(target: string, code: number, type: 'A' | 'AAAA'): Promise<void> {
    const e = this.targets.get(target)?.get(code);
    if (!e || e.busy || this.closed) return;
    if (this.users(target).length === 0) {
      // No zone aliases this target any more: forget it.
      for (const x of this.targets.get(target)!.values()) clearTimeout(x.timer);
      this.targets.delete(target);
      this.owners.delete(target);
      return;
    }
    e.busy = true;
    let result: Lookup;
    try {
      result = this.options.resolver ? await (this.options.lookup ?? lookupAddresses)(this.options.resolver, target, type) : { kind: 'failed', reason: 'RESOLVER is not set' };
    } catch (err) {
      result = { kind: 'failed', reason: err instanceof Error ? err.message : String(err) };
    } finally {
      e.busy = false;
    }
    if (this.closed || this.targets.get(target)?.get(code) !== e) return;
    if (result.kind === 'answer') {
      // What only an internal resolver knows is not published: answers and transfers alike.
      e.addresses = this.options.allowPrivate ? result.addresses : result.addresses.filter(isPublicAddress);
      e.ttl = Math.min(this.cap, Math.max(this.floor, result.ttl));
      e.expiresAt = this.now() + e.ttl * 1000;
      // Ahead of expiry, so the next answer is there before this one runs out.
      this.schedule(target, code, type, e, e.ttl * 750);
      e.failing = undefined;
    } else {
      const serving = e.addresses !== null && this.now() <= e.expiresAt + this.staleMs;
      if (e.failing?.serving !== serving) this.options.onFailure?.(target, type, result.reason, serving);
      e.failing = { serving };
      // Without a resolver nothing will change: no point asking again.
      if (this.options.resolver) this.schedule(target, code, type, e, this.retryMs);
    }
    for (const { zone, owner } of this.users(target)) this.apply(zone, owner, code, e);
  }
}
