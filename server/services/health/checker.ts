/**
 * This node's health checks of every pool member, and the judgement every node shares.
 *
 * Each member is checked on its pool's interval, from a random start so that nodes and pools spread
 * over time. A node keeps its own view of each member (down after `failures` failures in a row, up
 * after `successes` successes) and writes it when it changes, and every two intervals besides, so
 * that the view of a node that stopped ages out. A member goes down when more than half of the
 * nodes that checked it lately see it down, and is up while any of them reaches it without such a
 * majority: one node whose network is broken cannot take a healthy server out of DNS (with two
 * nodes, a tie keeps it in). The node that moves a state records it (one of
 * several judging at once, by a conditional write) and writes the pool's new answer as a change set
 * (source `health`): every node's DNS, the signatures, secondaries (NOTIFY, IXFR) follow as for any change.
 */
import { poolAnswer, poolAt, poolKey, readPools, type MemberState, type Pool, type ProbeSpec } from '../../core/pools';
import { toFqdn } from '../../core/domain-name';
import { poolHealth } from '../../metrics';
import type { DomainRow, PoolReport, ServiceStore } from '../../store/types';
import type { ChangeSets } from '../changes/change-sets';
import { writeAnswer } from './pools';

/** One check (server/outbound/probe.ts, handed in by the composition root). */
export type Probe = (spec: ProbeSpec) => Promise<{ ok: boolean; detail: string }>;

/** A member's state changed, as this node judged it. */
export interface Transition {
  zone: DomainRow;
  pool: Pool;
  address: string;
  from: MemberState;
  to: MemberState;
  at: string;
  votes: string;
}

export interface CheckerOptions {
  /** This node's name in the reports (a node that restarts is a new voter; its old view ages out). */
  node: string;
  probe: Probe;
  log: { warn(o: object, msg: string): void; error(o: object, msg: string): void };
  onTransition?: (t: Transition) => void;
  /** Checks in flight at most. */
  concurrency?: number;
  now?: () => number;
}

interface Target {
  domainId: number;
  zone: string;
  pool: Pool;
  address: string;
  nextAt: number;
  running: boolean;
  okStreak: number;
  failStreak: number;
  /** This node's view: null until a streak decides it. */
  up: boolean | null;
  ok: boolean | null;
  detail: string;
  checkedAt: number;
  writtenAt: number;
  dirty: boolean;
}

const TICK_MS = 250;
const REFRESH_MS = 5_000;
const SWEEP_MS = 10_000;
const SYSTEM = { username: 'zonedeck', credential: 'system' };

/** How long a node's view counts: it rewrites it every two intervals, so four (and the timeout) leaves room for a late one. */
export const freshFor = (pool: Pool): number => (4 * pool.check.interval_s + 5) * 1000 + pool.check.timeout_ms;

export class HealthChecker {
  private readonly targets = new Map<string, Target>();
  private timers: NodeJS.Timeout[] = [];
  private inflight = 0;
  private refreshing: Promise<void> | null = null;
  private readonly now: () => number;
  /** Pools (`domainId|key`) whose judgement is due after this node's reports are written. */
  private readonly toJudge = new Set<string>();
  private flushing = false;

  constructor(
    private readonly store: ServiceStore,
    private readonly changes: ChangeSets,
    private readonly options: CheckerOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    const every = (ms: number, fn: () => Promise<void> | void) => {
      const t = setInterval(() => void Promise.resolve(fn()).catch((err: unknown) => this.options.log.error({ err, job: 'health' }, 'health checks: a round failed; it runs again')), ms);
      t.unref();
      this.timers.push(t);
    };
    every(TICK_MS, () => this.tick());
    every(REFRESH_MS, () => this.refresh());
    every(SWEEP_MS, () => this.sweep());
    void this.refresh().catch(() => {});
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** Pools text by zone id, as last read: a zone event with other pools reads them again at once. */
  private readonly known = new Map<number, string>();

  /** A zone changed (this node's change sets): its pools read again now if they are not the ones known. */
  zoneChanged(zone: Pick<DomainRow, 'id' | 'pools'>): void {
    if ((this.known.get(zone.id) ?? null) !== (zone.pools ?? null)) void this.refresh().catch(() => {});
  }

  /** Reads the pools again (a zone event with other pools calls it too). */
  refresh(): Promise<void> {
    this.refreshing ??= this.load().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async load(): Promise<void> {
    const seen = new Set<string>();
    const now = this.now();
    this.known.clear();
    for (const zone of await this.store.poolHealth.zones()) {
      this.known.set(zone.id, zone.pools ?? '');
      for (const pool of readPools(zone.pools)) {
        for (const m of pool.members) {
          const key = `${zone.id}|${poolKey(pool)}|${m.address}`;
          seen.add(key);
          const t = this.targets.get(key);
          if (t) {
            if (t.pool.check.interval_s !== pool.check.interval_s) t.nextAt = Math.min(t.nextAt, now + pool.check.interval_s * 1000);
            t.pool = pool;
            t.zone = zone.name;
            continue;
          }
          const jitter = Math.random() * Math.min(pool.check.interval_s * 1000, 2_000);
          this.targets.set(key, {
            domainId: zone.id,
            zone: zone.name,
            pool,
            address: m.address,
            nextAt: now + jitter,
            running: false,
            okStreak: 0,
            failStreak: 0,
            up: null,
            ok: null,
            detail: '',
            checkedAt: 0,
            writtenAt: 0,
            dirty: false,
          });
        }
      }
    }
    for (const key of this.targets.keys()) if (!seen.has(key)) this.targets.delete(key);
  }

  /** Starts the checks that are due (as many as the concurrency allows), then writes what changed. */
  private async tick(): Promise<void> {
    const now = this.now();
    const max = this.options.concurrency ?? 256;
    for (const t of this.targets.values()) {
      if (this.inflight >= max) break;
      if (t.running || t.nextAt > now) continue;
      t.running = true;
      this.inflight += 1;
      // The next check an interval after this one started, with a little jitter so nodes do not fall into step.
      t.nextAt = now + t.pool.check.interval_s * 1000 * (0.95 + Math.random() * 0.1);
      void this.check(t).finally(() => {
        t.running = false;
        this.inflight -= 1;
      });
    }
    await this.flush();
  }

  private async check(t: Target): Promise<void> {
    const c = t.pool.check;
    let result: { ok: boolean; detail: string };
    try {
      result = await this.options.probe({
        kind: c.kind,
        address: t.address,
        port: c.port,
        path: c.path,
        host: c.host ?? toFqdn(t.pool.name, t.zone),
        expectStatus: c.expect_status,
        ...(c.expect_body ? { expectBody: c.expect_body } : {}),
        tlsVerify: c.tls_verify,
        timeoutMs: c.timeout_ms,
      });
    } catch (err) {
      result = { ok: false, detail: err instanceof Error ? err.message : String(err) };
    }
    poolHealth.checks[result.ok ? 'ok' : 'failed'] += 1;
    if (result.ok) {
      t.okStreak += 1;
      t.failStreak = 0;
    } else {
      t.failStreak += 1;
      t.okStreak = 0;
    }
    const before = t.up;
    if (t.okStreak >= c.successes) t.up = true;
    else if (t.failStreak >= c.failures) t.up = false;
    const now = this.now();
    if (t.up !== before || t.ok !== result.ok || t.writtenAt === 0 || now - t.writtenAt >= 2 * c.interval_s * 1000) t.dirty = true;
    t.ok = result.ok;
    t.detail = result.detail.slice(0, 200);
    t.checkedAt = now;
  }

  /** Writes this node's changed views in one transaction, then judges the pools they belong to. */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    const dirty = [...this.targets.values()].filter((t) => t.dirty);
    if (dirty.length === 0 && this.toJudge.size === 0) return;
    this.flushing = true;
    try {
      if (dirty.length > 0) {
        const rows: PoolReport[] = dirty.map((t) => ({
          domain_id: t.domainId,
          pool: poolKey(t.pool),
          address: t.address,
          node: this.options.node,
          up: t.up,
          ok: t.ok ?? false,
          detail: t.detail,
          checked_at: new Date(t.checkedAt).toISOString(),
        }));
        await this.store.transaction((tx) => tx.poolHealth.report(rows));
        for (const t of dirty) {
          t.dirty = false;
          t.writtenAt = t.checkedAt;
          this.toJudge.add(`${t.domainId}|${poolKey(t.pool)}`);
        }
      }
      const due = [...this.toJudge];
      this.toJudge.clear();
      for (const k of due) {
        const [id, key] = k.split('|') as [string, string];
        await this.judge(Number(id), key);
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Every pool judged again (a node whose view aged out), its answer made right, and what gone pools left removed. */
  private async sweep(): Promise<void> {
    const counts = new Map<string, number>();
    for (const zone of await this.store.poolHealth.zones()) {
      const pools = readPools(zone.pools);
      const keep = new Map(pools.map((p) => [poolKey(p), new Set(p.members.map((m) => m.address))]));
      await this.store.poolHealth.prune(zone.id, keep, 200);
      for (const p of pools) {
        const states = await this.judge(zone.id, poolKey(p));
        for (const m of p.members) {
          const s = states.get(m.address) ?? 'unknown';
          counts.set(s, (counts.get(s) ?? 0) + 1);
        }
      }
    }
    poolHealth.members = counts;
  }

  /**
   * A pool judged from every node's fresh views: the states moved where a majority says so, each
   * move recorded by the node that made it, and the pool's answer written when it differs from
   * the zone's records. Answers the states.
   */
  private async judge(domainId: number, key: string): Promise<Map<string, MemberState>> {
    const zone = await this.store.domains.byId(domainId);
    const [name, type] = key.split(' ') as [string, string];
    const pool = zone && poolAt(readPools(zone.pools), name, type);
    if (!zone || !pool) return new Map();
    const now = this.now();
    const at = new Date(now).toISOString();
    const fresh = (await this.store.poolHealth.reports(domainId, key)).filter((r) => now - Date.parse(r.checked_at) <= freshFor(pool));
    const states = new Map((await this.store.poolHealth.states(domainId)).filter((s) => s.pool === key).map((s) => [s.address, s.state]));
    for (const m of pool.members) {
      const reports = fresh.filter((r) => r.address === m.address);
      const up = reports.filter((r) => r.up === true).length;
      const down = reports.filter((r) => r.up === false).length;
      // Down takes more than half of the nodes that checked it lately (a node still deciding counts
      // among them); up takes one node that reaches it and no such majority. Else it stays.
      const to: MemberState | null = down * 2 > reports.length ? 'down' : up > 0 ? 'up' : null;
      if (to === null || (states.get(m.address) ?? 'unknown') === to) continue;
      const from = await this.store.transaction((tx) => tx.poolHealth.setState(domainId, key, m.address, to, at));
      if (from === null) continue;
      states.set(m.address, to);
      const said = `up ${up}, down ${down}`;
      await this.store.transaction((tx) => tx.poolHealth.addTransition({ domain_id: domainId, pool: key, address: m.address, from, to, at, node: this.options.node, votes: said }));
      poolHealth.transitions.set(to, (poolHealth.transitions.get(to) ?? 0) + 1);
      this.options.log.warn({ zone: zone.name, pool: key, address: m.address, from, to, votes: said }, `pool member ${to}`);
      this.options.onTransition?.({ zone, pool, address: m.address, from, to, at, votes: said });
    }
    await this.answer(zone, pool, states);
    return states;
  }

  /** Writes the pool's answer when the zone's records differ from it (read first: most rounds change nothing). */
  private async answer(zone: DomainRow, pool: Pool, states: ReadonlyMap<string, MemberState>): Promise<void> {
    const want = poolAnswer(pool, (a) => states.get(a));
    const have = (await this.store.records.atName(zone.id, pool.name)).filter((r) => r.record_type === pool.type && !r.disabled);
    const same = have.length === want.length && have.every((r) => r.ttl === pool.ttl) && [...have.map((r) => r.content)].sort().join() === want.join();
    if (same) return;
    await this.changes.update(zone, { source: 'health', actor: SYSTEM, comment: `pool ${toFqdn(pool.name, zone.name)} ${pool.type}: answers ${want.join(', ') || 'nothing'}` }, async (u) => {
      // The pool as the locked zone has it (it may have changed meanwhile).
      const now = poolAt(readPools(u.zone.pools), pool.name, pool.type);
      if (now) await writeAnswer(u, now, states);
    });
  }
}
