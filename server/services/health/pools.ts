/**
 * A zone's pools: made, changed and removed as change sets (the `pools` setting and, in the same
 * change, the pool's A/AAAA set as its members' states make it), and shown with what every node
 * found of each member. The health checks themselves run in checker.ts.
 */
import { Conflict, Forbidden, NotFound } from '../../core/errors';
import { poolAnswer, poolAt, poolKey, poolsText, POOL_LIMITS, readPools, type MemberState, type Pool } from '../../core/pools';
import { toFqdn } from '../../core/domain-name';
import type { DomainRow, PoolReport, PoolTransition, ServiceRepos, ServiceStore } from '../../store/types';
import type { Applied, ChangeSets, WriteOptions } from '../changes/change-sets';
import type { ZoneUpdate } from '../changes/change-sets/zone-update';
import { judgePool, type PoolBounds, type PoolInput } from './pool-rules';

export interface PoolsOptions extends PoolBounds {
  /** MAX_POOLS_PER_USER: pools across one owner's zones. */
  maxPerUser: number;
}

export interface MemberView {
  address: string;
  priority: number;
  weight: number;
  state: MemberState;
  since: string | null;
  nodes: { node: string; ok: boolean; state: MemberState; detail: string; checked_at: string }[];
}

export interface PoolView extends Omit<Pool, 'members'> {
  fqdn: string;
  members: MemberView[];
  answer: string[];
  transitions: Omit<PoolTransition, 'id' | 'domain_id' | 'pool' | 'votes'>[];
  warnings: string[];
}

/** Transitions a pool's page shows (and the most kept per pool). */
export const TRANSITIONS_SHOWN = 50;

/** The members' judged states of a zone's pool, by address. */
export type States = ReadonlyMap<string, MemberState>;

/**
 * Puts the pool's answer into the draft: its A/AAAA set as the states make it, with the pool's TTL
 * (none: the set goes). Answers the addresses.
 */
export async function writeAnswer(u: Pick<ZoneUpdate, 'draft'>, pool: Pool, states: States): Promise<string[]> {
  const answer = poolAnswer(pool, (a) => states.get(a));
  await u.draft.load([pool.name]);
  u.draft.put(
    pool.name,
    pool.type,
    answer.map((content) => ({ content, ttl: pool.ttl })),
    pool.ttl,
  );
  return answer;
}

/** The judged states of a pool's members, read in the change set's transaction. */
async function statesOf(tx: ServiceRepos, domainId: number, pool: Pool): Promise<States> {
  const key = poolKey(pool);
  return new Map((await tx.poolHealth.states(domainId)).filter((s) => s.pool === key).map((s) => [s.address, s.state]));
}

export class Pools {
  constructor(
    private readonly store: ServiceStore,
    private readonly changes: ChangeSets,
    private readonly options: PoolsOptions,
  ) {}

  /** The zone's pools as the API shows them. */
  async list(zone: DomainRow): Promise<PoolView[]> {
    const pools = readPools(zone.pools);
    if (pools.length === 0) return [];
    const [states, reports] = await Promise.all([this.store.poolHealth.states(zone.id), this.store.poolHealth.reports(zone.id)]);
    return Promise.all(pools.map(async (p) => this.view(zone, p, states, reports, await this.store.poolHealth.transitions(zone.id, poolKey(p), TRANSITIONS_SHOWN))));
  }

  async get(zone: DomainRow, ref: string): Promise<PoolView> {
    const pool = find(zone, ref);
    const key = poolKey(pool);
    const [states, reports, transitions] = await Promise.all([
      this.store.poolHealth.states(zone.id),
      this.store.poolHealth.reports(zone.id, key),
      this.store.poolHealth.transitions(zone.id, key, TRANSITIONS_SHOWN),
    ]);
    return this.view(zone, pool, states, reports, transitions);
  }

  /** Makes a pool; with a dry run, the change set it would be and the pool as it would be. */
  async create(zone: DomainRow, input: PoolInput, opts: WriteOptions): Promise<Applied<PoolView>> {
    let made: Pool | undefined;
    const applied = await this.changes.update(zone, opts, async (u) => {
      const pools = readPools(u.zone.pools);
      const id = pools.reduce((m, p) => Math.max(m, p.id), 0) + 1;
      const pool = judgePool(u.zone.name, input, undefined, id, this.options);
      if (poolAt(pools, pool.name, pool.type)) throw new Conflict(`${toFqdn(pool.name, u.zone.name)} already has a ${pool.type} pool: change that one`);
      await this.judgeLimits(u.tx, u.zone, pools.length);
      u.settings.pools = poolsText([...pools, pool]);
      await writeAnswer(u, pool, await statesOf(u.tx, u.zone.id, pool));
      made = pool;
    });
    return { ...applied, result: await this.get(applied.zone, String(made!.id)) };
  }

  /** Changes a pool: the fields given, over the ones it has (name and type stay). */
  async update(zone: DomainRow, ref: string, input: PoolInput, opts: WriteOptions): Promise<Applied<PoolView>> {
    let id = 0;
    const applied = await this.changes.update(zone, opts, async (u) => {
      const pools = readPools(u.zone.pools);
      const current = find(u.zone, ref);
      const pool = judgePool(u.zone.name, input, current, current.id, this.options);
      id = pool.id;
      u.settings.pools = poolsText(pools.map((p) => (p.id === pool.id ? pool : p)));
      await writeAnswer(u, pool, await statesOf(u.tx, u.zone.id, pool));
    });
    return { ...applied, result: await this.get(applied.zone, String(id)) };
  }

  /** Removes a pool and its A/AAAA set. */
  async remove(zone: DomainRow, ref: string, opts: WriteOptions): Promise<Applied<void>> {
    return this.changes.update(zone, opts, async (u) => {
      const pools = readPools(u.zone.pools);
      const pool = find(u.zone, ref);
      u.settings.pools = poolsText(pools.filter((p) => p.id !== pool.id));
      await u.draft.load([pool.name]);
      u.draft.put(pool.name, pool.type, [], pool.ttl);
    });
  }

  /** A zone holds at most POOL_LIMITS.perZone pools, and one owner's zones MAX_POOLS_PER_USER. */
  private async judgeLimits(tx: ServiceRepos, zone: DomainRow, inZone: number): Promise<void> {
    if (inZone >= POOL_LIMITS.perZone) throw new Forbidden(`${zone.name} already has ${inZone} pools; ${POOL_LIMITS.perZone} is the most one zone may have`);
    const owned = (await tx.poolHealth.zones()).filter((z) => z.user_id === zone.user_id && z.id !== zone.id);
    const total = owned.reduce((n, z) => n + readPools(z.pools).length, inZone);
    const max = this.options.maxPerUser;
    if (total >= max) throw new Forbidden(`this account already has ${total} pools; ${max} is the most one user may have (MAX_POOLS_PER_USER)`);
  }

  private view(
    zone: DomainRow,
    pool: Pool,
    states: readonly { pool: string; address: string; state: MemberState; since: string }[],
    reports: readonly PoolReport[],
    transitions: readonly PoolTransition[],
  ): PoolView {
    const key = poolKey(pool);
    const mine = new Map(states.filter((s) => s.pool === key).map((s) => [s.address, s]));
    const members: MemberView[] = pool.members.map((m) => ({
      ...m,
      state: mine.get(m.address)?.state ?? 'unknown',
      since: mine.get(m.address)?.since ?? null,
      nodes: reports
        .filter((r) => r.pool === key && r.address === m.address)
        .map((r) => ({ node: r.node, ok: r.ok, state: r.up === null ? 'unknown' : r.up ? 'up' : 'down', detail: r.detail, checked_at: r.checked_at })),
    }));
    const warnings: string[] = [];
    if (members.every((m) => m.state === 'down'))
      warnings.push(pool.fallback === 'all' ? 'every member is down: the pool answers all of them (fallback "all")' : 'every member is down: the pool answers no address (fallback "none")');
    if (members.some((m) => m.nodes.length === 0)) warnings.push('some members have not been checked yet: they are answered until a check says otherwise');
    const { members: _m, ...rest } = pool;
    return {
      ...rest,
      fqdn: toFqdn(pool.name, zone.name),
      members,
      answer: poolAnswer(pool, (a) => mine.get(a)?.state),
      transitions: transitions.map((t) => ({ address: t.address, from: t.from, to: t.to, at: t.at, node: t.node })),
      warnings,
    };
  }
}

/** The pool `ref` names in the zone: its id, or its name (with its type when the name has two pools, `www/AAAA`). */
export function find(zone: DomainRow, ref: string): Pool {
  const pools = readPools(zone.pools);
  const byId = /^\d+$/.test(ref) ? pools.find((p) => p.id === Number(ref)) : undefined;
  if (byId) return byId;
  const [name, type] = ref.split('/') as [string, string | undefined];
  const named = pools.filter((p) => (p.name === name || toFqdn(p.name, zone.name) === name.replace(/\.$/, '')) && (type === undefined || p.type === type.toUpperCase()));
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new NotFound(`${name} has an A and an AAAA pool: name one by its id, or as ${name}/A or ${name}/AAAA`);
  throw new NotFound(`${zone.name} has no pool ${ref}`);
}
