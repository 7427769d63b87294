/**
 * Secondary zones follow their primaries as RFC 1035 §3.3.13 and RFC 1996 say: each is checked
 * when its SOA refresh timer says (its retry timer after a failure), and at once on a NOTIFY from
 * a primary or "retrieve now". A check asks each primary in turn for its SOA; a newer serial
 * (RFC 1982) is fetched by IXFR, or AXFR when the primary answers with the whole zone or the
 * changes do not fit; what it brings is one change set. Past SOA expire without a good check the
 * zone stops being answered (every node's DNS reads `expires_at`).
 *
 * With many nodes, each runs this loop and the database's due time and lease decide: a node takes
 * a zone's lease for the length of one check, so one node at a time transfers a zone.
 */
import { parseHostPort } from '../../core/host-port';
import { serialAfter } from '../../core/soa';
import type { Logger } from '../../log';
import { secondaryTransfers } from '../../metrics';
import type { DomainRow, ServiceStore, TransferResult, TransferRow, TransferState } from '../../store/types';
import type { ChangeSets } from '../changes/change-sets';
import { applyTransfer, IxfrMismatch } from './apply-transfer';
import type { Pulled, PullClient, PulledSoa, PullKey } from './pull-types';

/** How often each node looks for zones due (a due time in the database, so every node sees NOTIFYs the others took). */
const POLL_MS = 1000;
/** A check holds its zone's lease this long at most (a node that dies mid-check frees the zone after it). */
const LEASE_MS = 10 * 60_000;
/** Zones one node checks at once. */
const PARALLEL = 4;
/** A zone never transferred is asked again after this long at most, whatever its retry timer. */
const FIRST_RETRY_S = 60;

export interface RefreshOptions {
  /** This node's name in the leases. */
  node: string;
  /** MAX_RECORDS_PER_ZONE. */
  maxRecords: number;
  log: Logger;
  now?: () => Date;
  /** Told when a zone's checks begin to fail: its first failed check since a good one, not every retry. */
  failing?: (zone: DomainRow, data: { error: string; state: TransferState; last_success: string | null; primaries: string[]; next_check: string }) => void;
}

/** The SOA the zone holds as its primary sent it (what an IXFR names as the version held), or null before the first transfer. */
export function heldSoa(zone: DomainRow): PulledSoa | null {
  if (!zone.expires_at || !zone.soa_mname || !zone.soa_rname) return null;
  return {
    mname: zone.soa_mname,
    rname: zone.soa_rname,
    serial: zone.serial_number,
    refresh: zone.refresh_interval,
    retry: zone.retry_interval,
    expire: zone.expire_interval,
    minimum: zone.minimum_ttl,
    ttl: zone.minimum_ttl,
  };
}

export class SecondaryRefresher {
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Set<number>();
  private polling = false;
  private readonly now: () => Date;

  constructor(
    private readonly store: ServiceStore,
    private readonly changes: ChangeSets,
    private readonly client: PullClient,
    private readonly options: RefreshOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    void this.poll();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Makes the zone due now (a NOTIFY, "retrieve now") and looks at once. */
  async checkSoon(zoneId: number): Promise<void> {
    await this.store.transfers.dueBy(zoneId, this.now().toISOString());
    void this.poll();
  }

  /** Checks the zones due, a few at a time; a failure of the database is logged and the next poll tries again. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const free = PARALLEL - this.running.size;
      if (free <= 0) return;
      const due = await this.store.transfers.due(this.now().toISOString(), PARALLEL * 2);
      for (const id of due.filter((id) => !this.running.has(id)).slice(0, free)) void this.check(id);
    } catch (err) {
      this.options.log.warn({ err }, 'secondary zones: cannot read which zones are due');
    } finally {
      this.polling = false;
    }
  }

  /** One check of one zone under its lease; resolves when it is written (or another node holds the zone). */
  async check(zoneId: number): Promise<void> {
    if (this.running.has(zoneId)) return;
    this.running.add(zoneId);
    const { node, log } = this.options;
    try {
      const start = this.now();
      if (!(await this.store.transfers.claim(zoneId, node, start.toISOString(), new Date(start.getTime() + LEASE_MS).toISOString()))) return;
      const zone = await this.store.domains.byId(zoneId);
      if (!zone || zone.kind !== 'secondary') return;
      const before = (await this.store.transfers.get([zoneId])).get(zoneId);
      const result = await this.refresh(zone, before);
      await this.store.transfers.finish(zoneId, node, result);
      if (result.error) log.warn({ zone: zone.name, error: result.error, state: result.state }, 'secondary zone refresh failed');
      if (result.error && result.failures === 1)
        this.options.failing?.(zone, { error: result.error, state: result.state, last_success: result.last_success, primaries: zone.primaries ?? [], next_check: result.next_check });
    } catch (err) {
      log.error({ err, zoneId }, 'secondary zone refresh failed');
    } finally {
      this.running.delete(zoneId);
    }
  }

  /** Asks each primary in turn until one answers; what the check found. */
  private async refresh(zone: DomainRow, before: TransferRow | undefined): Promise<TransferResult> {
    const at = this.now();
    const errors: string[] = [];
    let key: PullKey | undefined;
    try {
      key = await this.key(zone);
    } catch (e) {
      return this.failed(zone, before, at, (e as Error).message);
    }
    for (const text of zone.primaries ?? []) {
      try {
        const soa = await this.fromPrimary(zone, text, key, at);
        secondaryTransfers.ok += 1;
        // The refresh timer of the SOA now held (a transfer may just have changed it).
        const next = new Date(at.getTime() + Math.max(1, soa.refresh) * 1000);
        return { state: 'ok', serial: soa.serial, last_check: at.toISOString(), last_success: at.toISOString(), error: null, failures: 0, next_check: next.toISOString() };
      } catch (e) {
        errors.push(`${text}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    secondaryTransfers.failed += 1;
    return this.failed(zone, before, at, errors.join('; ') || 'the zone has no primaries');
  }

  /** One primary: its SOA, then the transfer when its serial is newer. Returns the SOA the zone holds after. */
  private async fromPrimary(zone: DomainRow, text: string, key: PullKey | undefined, at: Date): Promise<PulledSoa> {
    const primary = parseHostPort(text);
    const held = heldSoa(zone);
    const soa = await this.client.soa(primary, zone.name, key);
    const expiresAt = (s: PulledSoa) => new Date(at.getTime() + s.expire * 1000).toISOString();
    if (held && !serialAfter(soa.serial, held.serial)) {
      await this.changes.markRefreshed(zone.id, expiresAt(held));
      return held;
    }
    const limits = { maxRecords: this.options.maxRecords };
    let pulled: Pulled = await this.client.pull(primary, zone.name, held, limits, key);
    if (pulled.kind === 'current') {
      if (!held) throw new Error(`the primary answered with its SOA alone, serial ${pulled.soa.serial}: no zone to transfer`);
      await this.changes.markRefreshed(zone.id, expiresAt(held));
      return held;
    }
    try {
      await applyTransfer(this.changes, zone, text, pulled, expiresAt(pulled.soa));
    } catch (e) {
      if (!(e instanceof IxfrMismatch)) throw e;
      // The changes do not fit the zone as held: take the whole zone instead (RFC 1995 §4 leaves it to the client).
      this.options.log.warn({ zone: zone.name, primary: text, reason: e.message }, 'IXFR does not fit the zone held; asking for AXFR');
      pulled = await this.client.pull(primary, zone.name, null, limits, key, false);
      if (pulled.kind === 'current') throw new Error('the primary answered AXFR without the zone');
      await applyTransfer(this.changes, zone, text, pulled, expiresAt(pulled.soa));
    }
    return pulled.soa;
  }

  /** What a failed check leaves: the error, the retry timer, and `expired` once past expire. */
  private failed(zone: DomainRow, before: TransferRow | undefined, at: Date, error: string): TransferResult {
    const failures = (before?.failures ?? 0) + 1;
    const expired = zone.expires_at !== null && zone.expires_at !== undefined && Date.parse(zone.expires_at) <= at.getTime();
    const retry = zone.expires_at ? zone.retry_interval : Math.min(zone.retry_interval, FIRST_RETRY_S);
    return {
      state: expired ? 'expired' : 'failing',
      serial: before?.serial ?? null,
      last_check: at.toISOString(),
      last_success: before?.last_success ?? null,
      error: error.slice(0, 1000),
      failures,
      next_check: new Date(at.getTime() + Math.max(1, retry) * 1000).toISOString(),
    };
  }

  /** The zone's TSIG key, while its owner still holds it. */
  private async key(zone: DomainRow): Promise<PullKey | undefined> {
    if (!zone.tsig_key) return undefined;
    const row = await this.store.tsigKeys.byName(zone.tsig_key);
    if (!row) throw new Error(`the TSIG key ${zone.tsig_key} no longer exists: set another one on the zone`);
    return { name: row.name, algorithm: row.algorithm, secret: Buffer.from(row.secret, 'base64') };
  }
}
