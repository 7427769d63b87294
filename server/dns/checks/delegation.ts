/**
 * The delegation check (`delegated`): asks the configured resolver for a
 * zone's NS set and records whether it equals the configured name servers. It runs when
 * a zone is created and then periodically. A resolver that does not answer leaves the
 * flag as it was: only a real answer changes it. The questions themselves are asked by
 * services/dns-questions.ts, which the zone page's "check from outside" uses too.
 */
import { parseHostPort } from '../../core/host-port';
import { askNs, sameSet } from '../../services/checks/dns-questions';
import type { ReadStore } from '../../store/types';
import { zoneSlices } from '../sync/zone-list';

export interface DelegationOptions {
  resolver: string;
  nameservers: string[];
  timeoutMs?: number;
  onError?(err: unknown): void;
  /** Stores a changed result: the main thread's change sets write it (this thread writes nothing). */
  changed?(domainId: number, delegated: boolean): void;
  /** Zones listed at a time by a round of checks (default: zoneSlices's). */
  slice?: number;
}

export function createDelegationCheck(store: ReadStore, options: DelegationOptions) {
  const resolver = parseHostPort(options.resolver);
  const timeoutMs = options.timeoutMs ?? 3000;

  /** Checks one zone by id and has the result stored when it changed; returns it (null: unknown). */
  async function check(domainId: number): Promise<boolean | null> {
    const domain = await store.domains.byId(domainId);
    if (!domain) return null;
    const ns = await askNs(resolver, domain.name, timeoutMs);
    if (ns === null) return null;
    const delegated = ns.length > 0 && sameSet(ns, options.nameservers);
    // Read again: the zone may have gone while the resolver was asked.
    const now = await store.domains.byId(domainId);
    // Stored when it changed, and the first time a check answers (until then the API says "unknown").
    if (now && (now.delegated !== delegated || !now.delegation_checked)) options.changed?.(domainId, delegated);
    return delegated;
  }

  let running = false;

  /** Checks every zone, one at a time; a round still running when the next is due is not doubled. */
  async function checkAll(): Promise<void> {
    if (running) return;
    running = true;
    try {
      // A slice of zones at a time: one read of every whole row would hold this thread's answers up.
      for await (const slice of zoneSlices(store, options.slice)) {
        for (const d of slice) {
          try {
            await check(d.id);
          } catch (err) {
            options.onError?.(err);
          }
        }
      }
    } finally {
      running = false;
    }
  }

  return { check, checkAll };
}
