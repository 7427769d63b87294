/**
 * Health-checked pools: a name whose A or AAAA set is the pool's healthy members, chosen by a
 * policy. A zone's pools are one setting of the zone (JSON text, canonical here), so that creating,
 * changing and removing one is a change set like any other; the members' health is not zone data
 * and lives beside it (services/health/). The answer a pool gives for its members' states is
 * decided here, the same for the server that writes it and the dashboard that shows it.
 */

export const POOL_POLICIES = ['failover', 'all-healthy', 'weighted'] as const;
export type PoolPolicy = (typeof POOL_POLICIES)[number];
export const POOL_FALLBACKS = ['all', 'none'] as const;
export type PoolFallback = (typeof POOL_FALLBACKS)[number];
export const CHECK_KINDS = ['tcp', 'http', 'https'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
export const POOL_TYPES = ['A', 'AAAA'] as const;
export type PoolType = (typeof POOL_TYPES)[number];

/** A member's state as every node together judges it; `unknown` (not judged yet) is served as healthy. */
export const MEMBER_STATES = ['up', 'down', 'unknown'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

export interface PoolMember {
  address: string;
  /** Failover serves the lowest priority that has a healthy member. */
  priority: number;
  /** Weighted answers pick a member in proportion to its weight; 0 serves it only as a fallback. */
  weight: number;
}

export interface PoolCheck {
  kind: CheckKind;
  port: number;
  /** HTTP(S) only: the path asked for, and the Host header (and TLS name); null: the pool's own name. */
  path: string;
  host: string | null;
  /** The status codes that count as healthy, both ends included. */
  expect_status: [number, number];
  /** A text the body's first 64 KiB must contain; null: any body. */
  expect_body: string | null;
  tls_verify: boolean;
  interval_s: number;
  timeout_ms: number;
  /** Consecutive failures that take a member down, and successes that bring it back. */
  failures: number;
  successes: number;
}

export interface Pool {
  /** Stable within the zone; the API's `:pool` takes it or the pool's name. */
  id: number;
  /** Relative to the zone ('@': the apex). */
  name: string;
  type: PoolType;
  ttl: number;
  policy: PoolPolicy;
  fallback: PoolFallback;
  members: PoolMember[];
  check: PoolCheck;
}

/** Bounds a client's pool is judged against (the API's schema and the service use these). */
export const POOL_LIMITS = {
  members: 32,
  ttl: [0, 86_400],
  priority: [0, 255],
  weight: [0, 1000],
  timeoutMs: [100, 10_000],
  maxIntervalS: 3600,
  streak: [1, 10],
  pathLength: 1024,
  bodyLength: 256,
  /** Pools per zone, besides the per-user MAX_POOLS_PER_USER. */
  perZone: 200,
} as const;

export const DEFAULT_CHECK: Omit<PoolCheck, 'kind' | 'port'> = {
  path: '/',
  host: null,
  expect_status: [200, 399],
  expect_body: null,
  tls_verify: true,
  interval_s: 10,
  timeout_ms: 2000,
  failures: 3,
  successes: 2,
};

/** The port a check uses when none is given (a TCP check must name one). */
export const defaultPort = (kind: CheckKind): number | null => (kind === 'http' ? 80 : kind === 'https' ? 443 : null);

/** The key a pool's health rows carry: its name and type ("www A"). */
export const poolKey = (p: Pick<Pool, 'name' | 'type'>): string => `${p.name} ${p.type}`;

/** The zone's pools from their stored text (null or unreadable: none), by id. */
export function readPools(text: string | null | undefined): Pool[] {
  if (!text) return [];
  try {
    const raw = JSON.parse(text) as unknown;
    return Array.isArray(raw) ? (raw as Pool[]) : [];
  } catch {
    return [];
  }
}

/** The stored text of a zone's pools: sorted by id, fields in one order, so that equal pools are equal text; null for none. */
export function poolsText(pools: readonly Pool[]): string | null {
  if (pools.length === 0) return null;
  const canonical = [...pools]
    .sort((a, b) => a.id - b.id)
    .map((p) => ({
      id: p.id,
      name: p.name,
      type: p.type,
      ttl: p.ttl,
      policy: p.policy,
      fallback: p.fallback,
      members: p.members.map((m) => ({ address: m.address, priority: m.priority, weight: m.weight })),
      check: {
        kind: p.check.kind,
        port: p.check.port,
        path: p.check.path,
        host: p.check.host,
        expect_status: [p.check.expect_status[0], p.check.expect_status[1]],
        expect_body: p.check.expect_body,
        tls_verify: p.check.tls_verify,
        interval_s: p.check.interval_s,
        timeout_ms: p.check.timeout_ms,
        failures: p.check.failures,
        successes: p.check.successes,
      },
    }));
  return JSON.stringify(canonical);
}

/** The pool at a relative name and type, if there is one. */
export const poolAt = (pools: readonly Pool[], name: string, type: string): Pool | undefined => pools.find((p) => p.name === name && p.type === type);

/** A member serves while its state is not `down` (a member never judged yet serves). */
const serves = (state: MemberState | undefined): boolean => state !== 'down';

/**
 * The addresses a pool answers given its members' states, sorted: failover the healthy members of
 * the lowest priority that has any; all-healthy every healthy member; weighted every healthy member
 * of non-zero weight (the DNS server picks one of them per query by weight). None healthy: every
 * member (fallback `all`) or nothing (`none`).
 */
export function poolAnswer(pool: Pool, state: (address: string) => MemberState | undefined): string[] {
  const healthy = pool.members.filter((m) => serves(state(m.address)));
  let chosen: PoolMember[];
  if (pool.policy === 'failover') {
    const best = Math.min(...healthy.map((m) => m.priority));
    chosen = healthy.filter((m) => m.priority === best);
  } else if (pool.policy === 'weighted') {
    chosen = healthy.filter((m) => m.weight > 0);
    if (chosen.length === 0) chosen = healthy;
  } else chosen = healthy;
  if (chosen.length === 0) chosen = pool.fallback === 'all' ? pool.members : [];
  return [...new Set(chosen.map((m) => m.address))].sort();
}

/** One health check as the network side makes it (server/outbound/probe.ts): a member's address and its pool's check, resolved. */
export interface ProbeSpec {
  kind: CheckKind;
  address: string;
  port: number;
  path: string;
  /** The Host header and TLS name: the check's host, else the pool's own name. */
  host: string;
  expectStatus: [number, number];
  expectBody?: string;
  tlsVerify: boolean;
  timeoutMs: number;
}
