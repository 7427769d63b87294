/**
 * DNSSEC without a human: the driver that moves every signed zone along its policy. Every few seconds
 * it takes the zones due a look (dnssecWatch.due), each under a lease so that one node drives a zone at a
 * time, and for each one either starts a rollover (the keys do not match the policy: an algorithm
 * rollover; a key has lived its lifetime), makes the next step once its wait is over (rollover-steps.ts)
 * or the parent serves the new DS (parent-watch.ts), or notes when to look again. Every step is a change
 * set of source `dnssec` that moves the keys and the rollover state in one transaction, so every node
 * signs with the same keys from the same serial on, and a process killed mid-step resumes the step.
 */
import { Conflict } from '../../core/errors';
import { dnskeyTtl as dnskeyTtlOf, readPolicy, type DnssecPolicy } from '../../core/dnssec-policy';
import type { HostPort } from '../../core/host-port';
import { transferList } from '../../core/zone-transfers';
import type { DnssecPublicKey, DnssecWatch, DomainRow, ServiceStore } from '../../store/types';
import type { ChangeSets } from '../changes/change-sets';
import type { KeyStep, WriteOptions } from '../changes/change-sets/types';
import { keysMatch } from './key-setup';
import { dsOf, followInParent, judgeLook, lookAtParent } from './parent-watch';
import { describe, nextStep, readRollover, startStep, waitAfter, type Rollover, type RolloverKind, type Timing } from './rollover-steps';
import { dnssecRollovers } from '../../metrics';

const POLL_MS = 2_000;
const LEASE_MS = 60_000;
const PARALLEL = 4;
/** A zone with nothing to do is looked at again within this time anyway (a lifetime may come due). */
const IDLE_RECHECK_MS = 3_600_000;
/** Waiting on the parent longer than this is worth a warning (the step itself waits as long as needed). */
export const PARENT_WARN_MS = 86_400_000;

export interface RolloverOptions {
  /** DNSSEC_PROPAGATION_S. */
  propagationS: number;
  resolver: HostPort | null;
  /** Whether SECONDARIES are configured: every zone then has secondaries that may lag up to its SOA expire. */
  secondaries: boolean;
  node: string;
  log: { warn(o: object, m: string): void; error(o: object, m: string): void; info(o: object, m: string): void };
  now?: () => Date;
}

const SYSTEM = { username: 'zonedeck', credential: 'system' };

export class DnssecRollovers {
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Set<number>();
  private opts: RolloverOptions | null = null;

  /**
   * `dsChanged`: told when the parent's DS set of a zone changes: a parent hosted here took the
   * child's new DS, or the DS set a look at another parent found differs from the one seen before.
   */
  constructor(
    private readonly store: ServiceStore,
    private readonly changes: ChangeSets,
    private readonly dsChanged?: (zone: DomainRow, data: DsChange) => void,
  ) {}

  private get now(): Date {
    return this.opts?.now?.() ?? new Date();
  }

  /** Sets how the driver waits and asks, without a timer (tests drive it with `drive`; `start` does both). */
  configure(opts: RolloverOptions): void {
    this.opts = opts;
  }

  start(opts: RolloverOptions): void {
    this.configure(opts);
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    void this.poll();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The waits of a zone's rollover: its DNSKEY TTL, its largest TTL, and the propagation delay. */
  async timing(zone: DomainRow): Promise<Timing> {
    const dnskeyTtl = dnskeyTtlOf(zone.minimum_ttl);
    const maxTtl = Math.max(await this.store.records.maxTtl(zone.id), zone.minimum_ttl, dnskeyTtl);
    // A secondary that cannot refresh serves its copy until the SOA expire: a step waits for it too.
    const secondaries = (this.opts?.secondaries ?? false) || transferList(zone.also_notify).length > 0;
    return { dnskeyTtl, maxTtl, propagation: (this.opts?.propagationS ?? 3600) + (secondaries ? zone.expire_interval : 0) };
  }

  /** Looks at the zones due, a few at a time; a database failure is logged and the next poll tries again. */
  async poll(): Promise<void> {
    const opts = this.opts;
    if (!opts) return;
    try {
      const free = PARALLEL - this.running.size;
      if (free <= 0) return;
      const due = await this.store.dnssecWatch.due(this.now.toISOString(), PARALLEL * 2);
      await Promise.all(
        due
          .filter((id) => !this.running.has(id))
          .slice(0, free)
          .map((id) => this.drive(id)),
      );
      dnssecRollovers.stalled = this.stalled.size;
    } catch (err) {
      opts.log.warn({ err }, 'dnssec rollovers: cannot read which zones are due');
    }
  }

  /** Zones whose rollover has waited on the parent past PARENT_WARN_MS, or cannot ask it: the /metrics gauge. */
  private readonly stalled = new Set<number>();

  /** Looks in progress, by zone: a second call for a zone waits for the look already under way. */
  private readonly inflight = new Map<number, Promise<void>>();

  /** One look at one zone under its lease (or the end of the one under way). */
  drive(zoneId: number): Promise<void> {
    const under = this.inflight.get(zoneId);
    if (under) return under;
    const look = this.look(zoneId).finally(() => this.inflight.delete(zoneId));
    this.inflight.set(zoneId, look);
    return look;
  }

  private async look(zoneId: number): Promise<void> {
    const opts = this.opts!;
    if (this.running.has(zoneId)) return;
    this.running.add(zoneId);
    const now = this.now;
    try {
      if (!(await this.store.dnssecWatch.lease(zoneId, opts.node, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString()))) return;
      const zone = await this.store.domains.byId(zoneId);
      const before = await this.store.dnssecWatch.get(zoneId);
      const seen = zone && zone.dnssec_enabled ? await this.advance(zone, before, now) : { next_at: new Date(now.getTime() + IDLE_RECHECK_MS).toISOString() };
      await this.store.dnssecWatch.release(zoneId, opts.node, {
        checked_at: now.toISOString(),
        parent_ds: before?.parent_ds ?? null,
        seen_at: before?.seen_at ?? null,
        seen_ttl: before?.seen_ttl ?? null,
        error: before?.error ?? null,
        ...seen,
      });
    } catch (err) {
      opts.log.error({ err, zoneId }, 'a DNSSEC rollover step failed; it is tried again shortly');
      await this.store.dnssecWatch
        .release(zoneId, opts.node, {
          checked_at: now.toISOString(),
          parent_ds: null,
          seen_at: null,
          seen_ttl: null,
          error: String(err instanceof Error ? err.message : err),
          next_at: new Date(now.getTime() + 30_000).toISOString(),
        })
        .catch(() => {});
    } finally {
      this.running.delete(zoneId);
      dnssecRollovers.stalled = this.stalled.size;
    }
  }

  /** What the zone needs now; answers what the watch should hold after it (when to look again, what the parent showed). */
  private async advance(zone: DomainRow, watch: DnssecWatch | null, now: Date): Promise<Partial<DnssecWatch> & { next_at: string }> {
    const opts = this.opts!;
    const keys = (await this.store.dnssecKeys.publicKeys([zone.id])).filter((k) => k.domain_id === zone.id);
    // A parent hosted here follows the child's CDS at once (a change set in the parent's history).
    const followed = await followInParent(this.store, this.changes, zone, keys, Math.max(60, dnskeyTtlOf(zone.minimum_ttl)));
    if (followed) this.dsChanged?.(zone, { parent: followed.parent, hosted: true, ds_before: followed.before, ds_after: followed.after });
    const policy = readPolicy(zone.dnssec_policy);
    const r = readRollover(zone.dnssec_rollover);
    const at = (ms: number) => new Date(ms).toISOString();
    if (!r) {
      const kind = !keysMatch(keys, policy) ? 'algorithm' : lifetimeDue(keys, policy, now);
      if (kind) {
        await this.step(zone, null, startStep(kind, keys, policy, now.toISOString()), now);
        return { next_at: now.toISOString(), seen_at: null, seen_ttl: null, parent_ds: null, error: null };
      }
      return { next_at: at(Math.min(now.getTime() + IDLE_RECHECK_MS, nextLifetimeEnd(keys, policy) ?? Infinity)) };
    }
    // The zone's largest TTL is read only while a rollover waits on it (a look at a zone at rest reads no records).
    const wait = waitAfter(r, await this.timing(zone));
    if (wait.kind === 'time') {
      const due = Date.parse(r.step_at) + wait.seconds * 1000;
      if (now.getTime() < due) return { next_at: at(due) };
      await this.step(zone, r, nextStep(r, keys, now.toISOString()), now);
      return { next_at: now.toISOString(), seen_at: null, seen_ttl: null };
    }
    const wanted = keys.filter((k) => r.new_keys.includes(k.id) && k.in_cds).map(dsOf);
    const look = await lookAtParent(this.store, zone, opts.resolver);
    // A hosted parent was told above; another one's set is compared with the one this rollover saw before.
    const before = watch?.parent_ds ?? null;
    if (!look.hosted && look.ds && before && !sameSet(before, look.ds)) this.dsChanged?.(zone, { parent: null, hosted: false, ds_before: before, ds_after: look.ds });
    const judged = judgeLook(watch ?? { seen_at: null, seen_ttl: null }, look, wanted, now, opts.propagationS);
    const waitedLong = now.getTime() - Date.parse(r.step_at) > PARENT_WARN_MS;
    if (look.error || waitedLong) this.stalled.add(zone.id);
    else this.stalled.delete(zone.id);
    if (judged.confirmed) {
      this.stalled.delete(zone.id);
      await this.step(zone, r, nextStep(r, keys, now.toISOString()), now);
      return { next_at: now.toISOString(), seen_at: null, seen_ttl: null, parent_ds: look.ds, error: null };
    }
    return { next_at: at(judged.recheckAt), seen_at: judged.seen_at, seen_ttl: judged.seen_ttl, parent_ds: look.ds, error: look.error };
  }

  /** Makes one step as a change set, if the zone is still where the step was planned from (another node may have moved it). */
  private async step(zone: DomainRow, from: Rollover | null, step: KeyStep, now: Date, opts: WriteOptions = { source: 'dnssec', actor: SYSTEM }): Promise<DomainRow> {
    const { zone: after } = await this.changes.update(zone, { ...opts, comment: opts.comment ?? step.summary }, (u) => {
      const current = readRollover(u.zone.dnssec_rollover);
      if (!u.zone.dnssec_enabled || JSON.stringify(current) !== JSON.stringify(from)) throw new Conflict(`${zone.name}: its keys moved meanwhile; look again`);
      u.keys = step;
    });
    const r = readRollover(after.dnssec_rollover);
    const counted = `${r?.kind ?? from?.kind ?? 'none'} ${r?.step ?? 'done'}`;
    dnssecRollovers.steps.set(counted, (dnssecRollovers.steps.get(counted) ?? 0) + 1);
    this.opts?.log.info({ zone: zone.name, step: r?.step ?? 'done', at: now.toISOString() }, step.summary);
    return after;
  }

  /** Starts a rollover now (the API's and the CLI's "roll now"); `kind` defaults to the zone's KSK or CSK. */
  async startNow(zone: DomainRow, kind: RolloverKind | undefined, opts: WriteOptions): Promise<DomainRow> {
    if (!zone.dnssec_enabled) throw new Conflict(`${zone.name} is not signed: turn DNSSEC on first`);
    const running = readRollover(zone.dnssec_rollover);
    if (running) throw new Conflict(`${zone.name} is already rolling its keys (${running.kind}, step ${running.step}); it finishes by itself`);
    const keys = await this.store.dnssecKeys.publicKeys([zone.id]);
    const policy = readPolicy(zone.dnssec_policy);
    const roles = new Set(keys.map((k) => k.role));
    const chosen = kind ?? (!keysMatch(keys, policy) ? 'algorithm' : roles.has('csk') ? 'csk' : 'ksk');
    if (chosen !== 'algorithm' && !roles.has(chosen)) throw new Conflict(`${zone.name} has no ${chosen.toUpperCase()} to roll: its keys are ${[...roles].map((r) => r.toUpperCase()).join(' and ')}`);
    const after = await this.step(zone, null, startStep(chosen, keys, policy, this.now.toISOString()), this.now, opts);
    void this.poll();
    return after;
  }

  /** What GET /domains/:name/dnssec shows: every key, the rollover and when its next step can come, warnings. */
  async view(zone: DomainRow): Promise<DnssecView> {
    const keys = zone.dnssec_enabled ? await this.store.dnssecKeys.publicKeys([zone.id]) : [];
    const policy = readPolicy(zone.dnssec_policy);
    const r = zone.dnssec_enabled ? readRollover(zone.dnssec_rollover) : null;
    const watch = await this.store.dnssecWatch.get(zone.id);
    const warnings: string[] = [];
    let rollover: DnssecView['rollover'] = null;
    if (r) {
      const wait = waitAfter(r, await this.timing(zone));
      const parent = wait.kind === 'parent';
      if (parent && watch?.error) warnings.push(`The parent's DS cannot be checked: ${watch.error}. The rollover waits safely with both keys until it can.`);
      if (parent && Date.parse(this.now.toISOString()) - Date.parse(r.step_at) > PARENT_WARN_MS)
        warnings.push(
          `The parent has not published the new DS for more than a day; give it ${keys
            .filter((k) => r.new_keys.includes(k.id) && k.in_cds)
            .map(dsOf)
            .join(', ')} (both keys keep validating meanwhile).`,
        );
      rollover = {
        kind: r.kind,
        step: r.step,
        description: describe(r, keys),
        started_at: r.started_at,
        step_since: r.step_at,
        next_step_at: wait.kind === 'time' ? new Date(Date.parse(r.step_at) + wait.seconds * 1000).toISOString() : null,
        waiting_for: parent ? 'parent' : 'time',
        parent_ds: parent ? (watch?.parent_ds ?? null) : null,
        parent_checked_at: parent ? (watch?.checked_at ?? null) : null,
      };
    }
    const next = r || !zone.dnssec_enabled ? null : nextLifetimeEnd(keys, policy);
    return { dnssec_enabled: zone.dnssec_enabled, policy, keys, rollover, next_rollover_at: next === null ? null : new Date(next).toISOString(), warnings };
  }
}

export interface DnssecView {
  dnssec_enabled: boolean;
  policy: DnssecPolicy;
  keys: DnssecPublicKey[];
  rollover: {
    kind: RolloverKind;
    step: string;
    description: string;
    started_at: string;
    step_since: string;
    next_step_at: string | null;
    waiting_for: 'time' | 'parent';
    parent_ds: string[] | null;
    parent_checked_at: string | null;
  } | null;
  next_rollover_at: string | null;
  warnings: string[];
}

/** What `dnssec.ds_changed` says: the parent (its name when hosted here), and the DS set before and after. */
export interface DsChange {
  parent: string | null;
  hosted: boolean;
  ds_before: string[];
  ds_after: string[];
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

const DAY_MS = 86_400_000;

/** When the first key in use comes to the end of its lifetime (null: none has one). */
function nextLifetimeEnd(keys: readonly DnssecPublicKey[], policy: DnssecPolicy): number | null {
  const ends = keys
    .filter((k) => k.state === 'active')
    .map((k) => {
      const days = k.role === 'zsk' ? policy.zsk_lifetime_days : policy.ksk_lifetime_days;
      return days === null ? null : Date.parse(k.state_at ?? k.created_at) + days * DAY_MS;
    })
    .filter((e): e is number => e !== null);
  return ends.length > 0 ? Math.min(...ends) : null;
}

/** The rollover a key's lifetime calls for now, if any: ZSKs first (they need no parent). */
function lifetimeDue(keys: readonly DnssecPublicKey[], policy: DnssecPolicy, now: Date): RolloverKind | null {
  for (const role of ['zsk', 'ksk', 'csk'] as const) {
    const days = role === 'zsk' ? policy.zsk_lifetime_days : policy.ksk_lifetime_days;
    if (days === null) continue;
    if (keys.some((k) => k.role === role && k.state === 'active' && Date.parse(k.state_at ?? k.created_at) + days * DAY_MS <= now.getTime())) return role;
  }
  return null;
}
