/**
 * Choosing several records to delete together: which rows can be chosen, the state of the
 * "select all shown" box, and the selection as one RRset PATCH (a REMOVE per name and type),
 * so the whole deletion is one change set, applied all or nothing.
 */
import type { DnsRecord, RRsetChange } from '../../lib/api-types';

/** The apex NS set belongs to zonedeck: it cannot be edited or deleted here. */
export const isManaged = (r: DnsRecord) => r.name === '@' && r.record_type === 'NS';

/** Not managed, and already saved (a negative id is a row the server has not confirmed). */
export const isSelectable = (r: DnsRecord) => !isManaged(r) && r.id > 0;

/** The chosen records that still exist, in list order. */
export const selectedRecords = (list: readonly DnsRecord[], selected: ReadonlySet<number>) => list.filter((r) => selected.has(r.id) && isSelectable(r));

export type SelectAll = 'none' | 'some' | 'all';

/** The "select all shown" box: checked when every selectable shown row is, mixed when some are. */
export function selectAllState(rows: readonly DnsRecord[], selected: ReadonlySet<number>): SelectAll {
  let chosen = 0;
  let selectable = 0;
  for (const r of rows) {
    if (!isSelectable(r)) continue;
    selectable++;
    if (selected.has(r.id)) chosen++;
  }
  return chosen === 0 ? 'none' : chosen === selectable ? 'all' : 'some';
}

/** Adds every selectable shown row to the selection, or takes them all out of it. */
export function withAllShown(rows: readonly DnsRecord[], selected: ReadonlySet<number>, on: boolean): Set<number> {
  const next = new Set(selected);
  for (const r of rows) if (isSelectable(r)) on ? next.add(r.id) : next.delete(r.id);
  return next;
}

/** One REMOVE entry per RRset (name and type), its contents in the order the records come. */
export function removalsOf(records: readonly DnsRecord[]): RRsetChange[] {
  const sets = new Map<string, { name: string; record_type: string; changetype: 'REMOVE'; records: string[] }>();
  for (const r of records) {
    const key = `${r.name}\u0000${r.record_type}`;
    const set = sets.get(key) ?? { name: r.name, record_type: r.record_type, changetype: 'REMOVE' as const, records: [] };
    set.records.push(r.content);
    sets.set(key, set);
  }
  return [...sets.values()];
}
