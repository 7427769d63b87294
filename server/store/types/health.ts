/** Pools' health (migration 0029): each node's view of each member, the judged states, and their changes. None of it is zone data. */
import type { MemberState } from '../../core/pools';
import type { DomainRow } from './zones';

/** One node's latest view of one pool member. */
export interface PoolReport {
  domain_id: number;
  /** The pool's key, `"<name> <type>"` (core/pools.ts `poolKey`). */
  pool: string;
  address: string;
  node: string;
  /** The node's view after its failure and success streaks; null: not judged yet. */
  up: boolean | null;
  /** The last check's outcome and, in a few words, what it found. */
  ok: boolean;
  detail: string;
  checked_at: string;
}

export interface PoolMemberState {
  domain_id: number;
  pool: string;
  address: string;
  state: MemberState;
  since: string;
}

export interface PoolTransition {
  id: number;
  domain_id: number;
  pool: string;
  address: string;
  from: MemberState;
  to: MemberState;
  at: string;
  /** The node that judged it, and the votes it counted (`"up 2, down 1"`). */
  node: string;
  votes: string;
}

export interface HealthRepos {
  poolHealth: {
    /** Primary zones that have pools. */
    zones(): Promise<DomainRow[]>;
    /** Writes these reports (one row per pool, member and node, replaced). */
    report(rows: readonly PoolReport[]): Promise<void>;
    /** A zone's reports, every node's; `pool` narrows to one pool. */
    reports(domainId: number, pool?: string): Promise<PoolReport[]>;
    states(domainId: number): Promise<PoolMemberState[]>;
    /**
     * Sets a member's state to `to` unless it is that already (a member without a row is `unknown`);
     * the state it had when this call changed it, or null when it did not (so that of several nodes
     * judging at once, one records the change).
     */
    setState(domainId: number, pool: string, address: string, to: MemberState, at: string): Promise<MemberState | null>;
    addTransition(t: Omit<PoolTransition, 'id'>): Promise<void>;
    /** A pool's changes, newest first. */
    transitions(domainId: number, pool: string, limit: number): Promise<PoolTransition[]>;
    /** Removes what is kept of members and pools the zone no longer has (`keep`: pool key → addresses), and transitions beyond the newest `keepTransitions` per pool. */
    prune(domainId: number, keep: ReadonlyMap<string, ReadonlySet<string>>, keepTransitions: number): Promise<void>;
  };
}
