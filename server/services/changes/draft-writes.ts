/**
 * What a draft comes to in the store: the row writes that take the store from what was loaded to
 * the draft, and the history's view of them (every record removed or added; a TTL change is the
 * old record removed and the new one added, as IXFR sees it).
 */
import type { ChangeEntryRow, NewRow, RecordRow } from '../../store/types';
import type { Entry, RecordData, ZoneDraft } from './zone-draft';

export interface Writes {
  deletes: number[];
  inserts: NewRow<RecordRow>[];
  updates: { id: number; patch: Partial<NewRow<RecordRow>> }[];
  added: RecordData[];
  removed: RecordData[];
  /** Relative names whose records change. */
  names: string[];
}

const data = (name: string, record_type: string, e: Pick<Entry, 'ttl' | 'content' | 'disabled'>): RecordData =>
  e.disabled ? { name, record_type, ttl: e.ttl, content: e.content, disabled: true } : { name, record_type, ttl: e.ttl, content: e.content };

/** The writes of a draft, its rows stamped `at`. */
export async function draftWrites(draft: ZoneDraft, at: string): Promise<Writes> {
  const w: Writes = { deletes: [], inserts: [], updates: [], added: [], removed: [], names: [] };
  const domainId = draft.zone.id;
  // Rows kept in place by id, wherever they moved to.
  const kept = new Map<number, { name: string; type: string; entry: Entry }>();
  for (const name of draft.touchedNames()) {
    await draft.slice();
    for (const [type, entries] of draft.at(name)) for (const e of entries) if (e.id !== undefined) kept.set(e.id, { name, type, entry: e });
  }
  const changedNames = new Set<string>();
  for (const name of draft.touchedNames()) {
    await draft.slice();
    for (const row of draft.storedAt(name)) {
      const k = kept.get(row.id);
      const was = data(row.name, row.record_type, { ttl: row.ttl, content: row.content, disabled: Boolean(row.disabled) });
      if (!k) {
        w.deletes.push(row.id);
        w.removed.push(was);
        changedNames.add(name);
        continue;
      }
      const disabled = k.entry.disabled === true;
      const same = k.name === row.name && k.type === row.record_type && k.entry.content === row.content && k.entry.ttl === row.ttl && disabled === (row.disabled === 1);
      if (same) continue;
      w.updates.push({ id: row.id, patch: { name: k.name, record_type: k.type, content: k.entry.content, ttl: k.entry.ttl, updated_at: at, disabled: disabled ? 1 : 0 } });
      w.removed.push(was);
      w.added.push(data(k.name, k.type, { ...k.entry, disabled }));
      changedNames.add(name).add(k.name);
    }
    for (const [type, entries] of draft.at(name)) {
      for (const e of entries) {
        if (e.id !== undefined) continue;
        w.inserts.push({ domain_id: domainId, name, record_type: type, content: e.content, ttl: e.ttl, created_at: at, updated_at: at, disabled: e.disabled ? 1 : 0 });
        w.added.push(data(name, type, e));
        changedNames.add(name);
      }
    }
  }
  w.names = [...changedNames];
  return w;
}

/**
 * Entries of the history for these records: removed first, as IXFR lists them (RFC 1995 §4).
 * A disabled record's entry keeps its flag: IXFR skips it, a revert restores it disabled.
 */
export function historyEntries(w: Pick<Writes, 'added' | 'removed'>): ChangeEntryRow[] {
  const entry = (op: 0 | 1, r: RecordData): ChangeEntryRow => ({ op, name: r.name, record_type: r.record_type, ttl: r.ttl, content: r.content, disabled: r.disabled ? 1 : 0 });
  return [...w.removed.map((r) => entry(0, r)), ...w.added.map((r) => entry(1, r))];
}
