/**
 * The records chosen to delete together, kept across filtering: which of them still exist, how
 * many the filters hide, and the "select all shown" box over the rows in view.
 */
import { useCallback, useMemo, useState } from 'react';
import type { DnsRecord } from '../../lib/api-types';
import { selectAllState, selectedRecords, withAllShown } from './record-selection';

export function useSelectionState(records: readonly DnsRecord[] | undefined, rows: readonly DnsRecord[]) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const chosen = useMemo(() => selectedRecords(records ?? [], selected), [records, selected]);
  const hidden = useMemo(() => {
    const shown = new Set(rows.map((r) => r.id));
    return chosen.filter((r) => !shown.has(r.id)).length;
  }, [rows, chosen]);
  const allShown = useMemo(() => selectAllState(rows, selected), [rows, selected]);
  const onSelect = useCallback((id: number, on: boolean) => setSelected((s) => (on ? new Set(s).add(id) : new Set([...s].filter((x) => x !== id)))), []);
  const onSelectAllShown = useCallback((on: boolean) => setSelected((s) => withAllShown(rows, s, on)), [rows]);
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, chosen, hidden, allShown, onSelect, onSelectAllShown, clear };
}
