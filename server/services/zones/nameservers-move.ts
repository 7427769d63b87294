/**
 * Name servers are the operator's to move. NAMESERVERS gives a new zone its apex NS set; a zone
 * keeps that set until something moves it. This module moves zones from one set to another, each
 * zone by a change set of its own (source `system`: serial, history, NOTIFY and re-signing as for
 * any change), and remembers the set in effect (a row of `settings`) so that a start with another
 * NAMESERVERS knows which zones still have the previous one.
 *
 * Only a zone whose apex NS set is exactly the one to move from moves: a set an administrator made
 * (through a zone file, the PowerDNS API) is theirs and stays. The comparison is repeated inside
 * each change set, on the locked zone, so that two nodes starting together move each zone once (the
 * second finds the new set already and changes nothing). Secondary zones are their primary's.
 */
import { APEX } from '../../core/domain-name';
import type { DomainRow, ReadStore, ServiceStore } from '../../store/types';
import type { ChangeSets } from '../changes/change-sets';

/** NAMESERVERS when it is not set (config.ts): names under .test, which no parent delegates to. */
export const DEFAULT_NAMESERVERS: readonly string[] = ['ns1.zonedeck.test', 'ns2.zonedeck.test'];

/** The `settings` key of the set last applied to the zones (comma-separated). */
const IN_EFFECT_KEY = 'nameservers_in_effect';

const SYSTEM = { username: 'zonedeck', credential: 'system' };

/** A name server's name as NS records hold it: lower case, no trailing dot. */
const hostName = (s: string) => s.trim().toLowerCase().replace(/\.$/, '');

/** A set of names in one canonical order, to compare sets as text. */
export const setText = (names: readonly string[]): string => [...new Set(names.map(hostName))].sort().join(',');

export const sameSet = (a: readonly string[], b: readonly string[]): boolean => setText(a) === setText(b);

export interface ZoneNameservers {
  name: string;
  /** The apex NS set the zone has (sorted). */
  nameservers: string[];
}

export interface MoveRequest {
  /** The set to move to. */
  to: readonly string[];
  /** Only zones with exactly this set; absent: every zone whose set is not `to` already. */
  from?: readonly string[];
  /** Only these zones (by name); absent: every primary zone. */
  zones?: readonly string[];
  dryRun?: boolean;
  /** Who asked (the history's actor): the start itself by default. */
  actor?: { username: string; credential: string };
}

export interface MoveResult {
  /** The zones moved (or, in a dry run, that would move), with the set each had. */
  moved: ZoneNameservers[];
  /** Named zones (`zones`) that were not moved: not found, secondary, or another set than `from`. */
  skipped: { name: string; why: string }[];
  failed: { name: string; error: string }[];
}

export function createNameserverMoves(store: Pick<ServiceStore, 'settings'>, reads: ReadStore, changes: ChangeSets, configured: readonly string[]) {
  /** The apex NS set of every primary zone, by name. */
  async function sets(only?: ReadonlySet<string>): Promise<{ zone: DomainRow; nameservers: string[] }[]> {
    const out: { zone: DomainRow; nameservers: string[] }[] = [];
    for (const zone of await reads.domains.all()) {
      if (zone.kind === 'secondary' || (only && !only.has(zone.name))) continue;
      const ns = (await reads.records.atName(zone.id, APEX)).filter((r) => r.record_type === 'NS').map((r) => hostName(r.content));
      out.push({ zone, nameservers: ns.sort() });
    }
    return out;
  }

  /** Moves the zones `req` names; each its own change set, so a zone that fails leaves the others moved. */
  async function move(req: MoveRequest): Promise<MoveResult> {
    const to = [...new Set(req.to.map(hostName))];
    const named = req.zones ? new Set(req.zones.map(hostName)) : undefined;
    const moves = (ns: readonly string[]) => !sameSet(ns, to) && (req.from === undefined || sameSet(ns, req.from));
    const result: MoveResult = { moved: [], skipped: [], failed: [] };
    const found = await sets(named);
    for (const name of named ?? []) {
      if (!found.some((f) => f.zone.name === name)) result.skipped.push({ name, why: 'no such primary zone' });
    }
    for (const { zone, nameservers } of found) {
      if (!moves(nameservers)) {
        if (named) result.skipped.push({ name: zone.name, why: sameSet(nameservers, to) ? 'has that set already' : `has another set (${nameservers.join(', ')})` });
        continue;
      }
      const comment = `name servers moved from ${nameservers.join(', ') || 'none'} to ${to.join(', ')}`;
      try {
        const { change } = await changes.update(
          async (tx) => (await tx.domains.byId(zone.id)) ?? Promise.reject(new Error('deleted meanwhile')),
          { source: 'system', actor: req.actor ?? SYSTEM, comment, dryRun: req.dryRun },
          async (u) => {
            await u.draft.load([APEX]);
            const now = u.draft.rrset(APEX, 'NS');
            // Judged again on the locked zone: another node, or a person, may have moved it since it was read.
            if (!moves(now.map((e) => e.content))) return;
            const ttl = now[0]?.ttl ?? 3600;
            u.draft.system = true;
            u.draft.put(
              APEX,
              'NS',
              to.map((content) => ({ content, ttl })),
              ttl,
            );
          },
        );
        if (change.id !== null || req.dryRun) result.moved.push({ name: zone.name, nameservers });
      } catch (e) {
        result.failed.push({ name: zone.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
    return result;
  }

  return {
    /** NAMESERVERS as this process has it. */
    configured: [...configured],
    sets,
    move,

    /** How many primary zones have an apex NS set other than NAMESERVERS, and which sets. */
    async others(): Promise<{ zones: number; sets: { nameservers: string[]; zones: number }[] }> {
      const bySet = new Map<string, number>();
      for (const { nameservers } of await sets()) {
        if (sameSet(nameservers, configured)) continue;
        const key = nameservers.join(',');
        bySet.set(key, (bySet.get(key) ?? 0) + 1);
      }
      const list = [...bySet].map(([key, zones]) => ({ nameservers: key ? key.split(',') : [], zones })).sort((a, b) => b.zones - a.zones);
      return { zones: list.reduce((n, s) => n + s.zones, 0), sets: list };
    },

    /**
     * At start: when NAMESERVERS is not the set in effect, every zone with exactly the previous set
     * moves to it, then NAMESERVERS is remembered. With nothing remembered (an install from before),
     * the previous set is taken to be the default one, and only when NAMESERVERS is another: zones on
     * the default .test names cannot have been delegated by anyone, so moving them breaks nothing,
     * while any other set may be one the operator made on purpose.
     */
    async follow(): Promise<{ from: string[]; result: MoveResult } | null> {
      const remembered = await store.settings.get(IN_EFFECT_KEY);
      const previous = remembered !== undefined ? remembered.split(',').filter(Boolean) : sameSet(configured, DEFAULT_NAMESERVERS) ? null : [...DEFAULT_NAMESERVERS];
      let out: { from: string[]; result: MoveResult } | null = null;
      if (previous && !sameSet(previous, configured)) out = { from: previous, result: await move({ to: configured, from: previous }) };
      if (remembered !== setText(configured)) await store.settings.set(IN_EFFECT_KEY, setText(configured));
      return out;
    },
  };
}

export type NameserverMoves = ReturnType<typeof createNameserverMoves>;
