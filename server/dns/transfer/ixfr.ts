/**
 * Incremental zone transfer (RFC 1995), answered from the zone's history of change sets
 *. A client at serial N gets the current SOA, then for each change set since
 * N the SOA before it, the records it removed, the SOA after it and the records it added, and
 * the current SOA again (§4). A client already current gets the SOA alone (§2). When the
 * history does not reach back to N without a gap, when the deltas would be larger than the
 * zone, or for a zone holding data the history does not (a signed zone's RRSIGs and NSECs, the
 * CDS/CDNSKEY delete form, an ALIAS's resolved addresses), and across a change that turned
 * DNSSEC on or off, the answer is the whole zone in AXFR form, which §4 allows and every
 * secondary accepts.
 */
import { APEX, toFqdn } from '../../core/domain-name';
import { serialAtOrAfter } from '../../core/soa';
import { RECORD_TYPE_BY_NAME } from '../../core/record-types';
import type { ChangeEntryRow, ChangeSetRow } from '../../store/types';
import { axfrMessages, transferMessages, type TransferRecord } from './axfr';
import { CDNSKEY, CDS } from '../dnssec/cds';
import type { Query } from '../wire/query';
import { MAX_MESSAGE } from '../wire/writer';
import { T, type SoaData } from '../index/rrset';
import type { Zone } from '../index/zone';

/** A change set of the history with its records, as the IXFR answer needs it. */
export interface HistoryStep {
  row: ChangeSetRow;
  entries: ChangeEntryRow[];
}

/** Reads the zone's change sets from the one starting at `serial` on (oldest first), or none. */
export interface HistoryReader {
  since(zoneId: number, serial: number): Promise<ChangeSetRow[]>;
  entries(changeSetId: number): Promise<ChangeEntryRow[]>;
}

/**
 * The change sets that lead from `from` to the zone's current serial without a gap, or null
 * when the history does not cover that (pruned, or a serial it never recorded).
 */
export async function stepsSince(history: HistoryReader, zone: Zone, from: number): Promise<HistoryStep[] | null> {
  const rows = await history.since(zone.id, from);
  const target = zone.domain.serial_number;
  const chain: ChangeSetRow[] = [];
  let at = from;
  let size = 0;
  for (const row of rows) {
    if (row.serial_before !== at) return null;
    chain.push(row);
    size += row.added_count + row.removed_count;
    at = row.serial_after;
    if (at === target) break;
  }
  if (at !== target || chain.length === 0) return null;
  // Past the zone's own size, deltas cost more than the zone: send the zone.
  if (size > zone.recordCount()) return null;
  const steps: HistoryStep[] = [];
  for (const row of chain) steps.push({ row, entries: await history.entries(row.id) });
  return steps;
}

/** The SOA of each version along the steps: timers walked back from the current ones through each change's settings. */
function soaVersions(zone: Zone, steps: readonly HistoryStep[]): SoaData[] {
  const current = zone.soa.data[0] as SoaData;
  const versions: SoaData[] = [current];
  let after = current;
  for (let i = steps.length - 1; i >= 0; i--) {
    const { row } = steps[i]!;
    const settings = JSON.parse(row.settings) as Record<string, [unknown, unknown]>;
    const old = (field: string, v: number) => (settings[field] ? Number(settings[field]![0]) : v);
    const before: SoaData = {
      ...after,
      serial: row.serial_before,
      refresh: old('refresh_interval', after.refresh),
      retry: old('retry_interval', after.retry),
      expire: old('expire_interval', after.expire),
      minimum: old('minimum_ttl', after.minimum),
    };
    versions.unshift(before);
    after = before;
  }
  return versions;
}

function* ixfrRecords(zone: Zone, steps: readonly HistoryStep[]): Generator<TransferRecord> {
  const soas = soaVersions(zone, steps);
  const soa = (data: SoaData): TransferRecord => ({ set: { name: zone.name, type: T.SOA, ttl: data.minimum }, data });
  const record = (e: ChangeEntryRow): TransferRecord | null => {
    const type = RECORD_TYPE_BY_NAME.get(e.record_type);
    // A disabled record was never served: its toggles are the served record's removal or return.
    if (!type || type.synthetic || e.disabled) return null;
    return { set: { name: toFqdn(e.name === '' ? APEX : e.name, zone.name), type: type.code, ttl: e.ttl }, data: type.wireData(e.content) };
  };
  function* side(entries: readonly ChangeEntryRow[], op: 0 | 1): Generator<TransferRecord> {
    for (const e of entries) {
      const r = e.op === op ? record(e) : null;
      if (r) yield r;
    }
  }
  yield soa(soas.at(-1)!);
  for (let i = 0; i < steps.length; i++) {
    const { entries } = steps[i]!;
    yield soa(soas[i]!);
    yield* side(entries, 0);
    yield soa(soas[i + 1]!);
    yield* side(entries, 1);
  }
  yield soa(soas.at(-1)!);
}

/**
 * Whether the zone is exactly its record rows and SOA, which the history describes. Not so for a
 * signed zone (RRSIGs, NSECs, DNSKEY, CDS), one publishing the CDS/CDNSKEY delete form, or one
 * with an ALIAS, whose A and AAAA are resolved, not stored.
 */
function fromHistoryAlone(zone: Zone): boolean {
  const apex = zone.nodes.get(zone.name);
  return !zone.signer && zone.aliases.size === 0 && !apex?.has(CDS) && !apex?.has(CDNSKEY);
}

/**
 * A change set that added or removed data the history does not list: DNSSEC on or off, keys,
 * the delete form's end, an ALIAS added or removed (with the addresses it stood for).
 */
function changesServiceData({ row, entries }: HistoryStep): boolean {
  if (row.source === 'dnssec' || row.source === 'alias' || entries.some((e) => RECORD_TYPE_BY_NAME.get(e.record_type)?.synthetic)) return true;
  const settings = JSON.parse(row.settings) as Record<string, unknown>;
  return settings.dnssec_enabled !== undefined || settings.dnssec_keys !== undefined;
}

/** How an IXFR was answered, for the log: deltas, the SOA alone, or the whole zone. */
export type IxfrMode = 'incremental' | 'current' | 'full';

/** The TCP answer to an IXFR query for a zone (transfer already allowed). */
/** `capacity`: the size of each message (less than 65535 when a TSIG RR is to follow). */
export async function ixfrMessages(raw: Uint8Array, q: Query, zone: Zone, history: HistoryReader | undefined, capacity = MAX_MESSAGE): Promise<{ mode: IxfrMode; messages: Buffer[] }> {
  const from = q.ixfrSerial;
  const current = zone.domain.serial_number;
  if (from !== undefined && serialAtOrAfter(from, current)) {
    return { mode: 'current', messages: transferMessages(raw, q, [{ set: { name: zone.name, type: T.SOA, ttl: zone.soa.ttl }, data: zone.soa.data[0] }], capacity) };
  }
  const full = () => ({ mode: 'full' as const, messages: axfrMessages(raw, q, zone, capacity) });
  if (from === undefined || !history || !fromHistoryAlone(zone)) return full();
  const steps = await stepsSince(history, zone, from);
  // The zone may have moved on while the history was read: then the deltas no longer end at its SOA.
  if (!steps || zone.domain.serial_number !== current || steps.some(changesServiceData)) return full();
  return { mode: 'incremental', messages: transferMessages(raw, q, ixfrRecords(zone, steps), capacity) };
}
