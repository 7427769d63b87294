/**
 * Secondary zones as users see them: each one's transfer state (`ok`, `refreshing`, `failing`,
 * `expired`, with the serial, the last check and success, and the last error), "retrieve now",
 * and a NOTIFY from a primary acted on. The refresh itself runs in refresh.ts, started by the
 * composition root with the network client.
 */
import { Forbidden } from '../../core/errors';
import { zoneRefusal, type Scope } from '../../core/scope';
import type { DomainRow, ServiceStore, TransferRow, TransferState } from '../../store/types';
import type { ChangeSets } from '../changes/change-sets';
import type { Zones, ZoneRef } from '../zones/zones';
import type { PullClient } from './pull-types';
import { SecondaryRefresher, type RefreshOptions } from './refresh';

/** A secondary's transfer state as the API shows it. */
export interface TransferView {
  state: TransferState;
  serial: number | null;
  last_check: string | null;
  last_success: string | null;
  error: string | null;
  /** When the zone stops being answered unless refreshed; null before the first transfer. */
  expires_at: string | null;
  next_check: string | null;
}

/** The state shown: past `expires_at` a zone is expired whatever its last check said. */
export function transferView(zone: DomainRow, row: TransferRow | undefined, now = Date.now()): TransferView {
  const expired = zone.expires_at ? Date.parse(zone.expires_at) <= now : false;
  const state: TransferState = expired ? 'expired' : (row?.state ?? 'refreshing');
  return {
    state,
    serial: row?.serial ?? (zone.expires_at ? zone.serial_number : null),
    last_check: row?.last_check ?? null,
    last_success: row?.last_success ?? null,
    error: row?.error ?? null,
    expires_at: zone.expires_at ?? null,
    next_check: row?.next_check ?? null,
  };
}

export class Secondaries {
  private refresher: SecondaryRefresher | null = null;

  /** `failing`: told once per failing streak of a zone, at its first failed check after a good one (or before any). */
  constructor(
    private readonly store: ServiceStore,
    private readonly changes: ChangeSets,
    private readonly zones: Zones,
    private readonly failing?: RefreshOptions['failing'],
  ) {}

  /** Starts following every secondary zone (main.ts, with the network client); stopped by `stop`. */
  start(client: PullClient, options: RefreshOptions): SecondaryRefresher {
    this.refresher = new SecondaryRefresher(this.store, this.changes, client, { failing: this.failing, ...options });
    this.refresher.start();
    return this.refresher;
  }

  stop(): void {
    this.refresher?.stop();
    this.refresher = null;
  }

  /** The transfer state of these zones (secondaries only), by id. */
  async states(zones: readonly DomainRow[]): Promise<Map<number, TransferView>> {
    const secondaries = zones.filter((z) => z.kind === 'secondary');
    const rows = await this.store.transfers.get(secondaries.map((z) => z.id));
    return new Map(secondaries.map((z) => [z.id, transferView(z, rows.get(z.id))]));
  }

  /**
   * "Retrieve now": the zone is checked against its primaries at once (on whichever node takes it
   * first). A credential limited to some names or types may not ask it (it changes the whole zone).
   */
  async retrieve(userId: number, ref: ZoneRef, scope?: Scope): Promise<DomainRow> {
    const zone = await this.zones.owned(userId, ref);
    if (zone.kind !== 'secondary') throw new Forbidden(`${zone.name} is a primary zone: its records are written here, there is nothing to retrieve`);
    const refused = scope && zoneRefusal(scope, zone.name, 'a transfer of the whole zone');
    if (refused) throw new Forbidden(refused);
    await this.due(zone.id);
    return zone;
  }

  /** A NOTIFY from one of the zone's primaries (the DNS thread checked the address and key): checked at once. */
  async notified(zoneId: number): Promise<void> {
    await this.due(zoneId);
  }

  private async due(zoneId: number): Promise<void> {
    if (this.refresher) await this.refresher.checkSoon(zoneId);
    else await this.store.transfers.dueBy(zoneId, new Date().toISOString());
  }
}
