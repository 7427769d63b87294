/**
 * The records section of the domain editor: filter by name and type, sort, and add, edit or
 * delete in place, or select several and delete them as one change set. Every change shows at
 * once (optimistic) and is undone, with the server's message on the form, if the server
 * refuses it; a refusal because the zone changed elsewhere (412) is told by the conflict
 * banner, and the form keeps the draft for after Reload. `readOnly` (a team member whose role
 * only reads the zone) leaves the filters and sorting and takes every control that writes away.
 *
 * The state lives in hooks of its own: shown-records (filters, sort), selection-state,
 * adding-record, editing-record and row-actions (arming a delete, Disable/Enable).
 */
import { useMutationState, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { DnsRecord, Domain } from '../../lib/api-types';
import { useAllIps } from '../../lib/list-all-ips';
import { poolsQuery } from '../../lib/list-pools';
import { ErrorState, LoadingState } from '../../ui/states';
import { useAddingRecord } from './adding-record';
import { BulkDeleteBar } from './bulk-delete-bar';
import { useEditingRecord } from './editing-record';
import { useRecords } from './list-records';
import { recordMutationKey } from './record-cache';
import { RecordForm } from './record-form';
import { RecordsTable } from './records-table';
import { RecordsToolbar } from './records-toolbar';
import { useRowActions } from './row-actions';
import { useSelectionState } from './selection-state';
import { useRecordFilters, useRecordSort, useShownRecords } from './shown-records';
import { useUpdateRecord } from './update-record';
import './records.css';

/** The ids of records with a write on its way (shown as saving). */
function usePendingIds(zone: string): ReadonlySet<number> {
  const pending = useMutationState({
    filters: { mutationKey: recordMutationKey(zone), status: 'pending' },
    select: (m) => (m.state.variables as { before?: DnsRecord } | undefined)?.before?.id ?? -1,
  });
  return useMemo(() => new Set(pending), [pending]);
}

/**
 * `readOnlyReason`: one sentence under the heading saying why nothing here can be changed (a secondary zone).
 * `ownRanges`: false on another account's zone (an administrator's view), whose addresses are not
 * judged against the viewer's own registered ranges.
 */
export function RecordsPanel({ domain, readOnly = false, readOnlyReason, ownRanges = true }: { domain: Domain; readOnly?: boolean; readOnlyReason?: string; ownRanges?: boolean }) {
  const zone = domain.name;
  const records = useRecords(zone);
  const ips = useAllIps(ownRanges);
  // A disabled query still holds what it read before: another account's zone gets none of it.
  const ranges = ownRanges ? ips.data : undefined;
  const filters = useRecordFilters();
  const { sort, onSort } = useRecordSort();
  const rows = useShownRecords(records.data, filters, sort);
  // The sets pools answer are marked, and left to their pools (the server refuses any other write to them).
  const poolList = useQuery({ ...poolsQuery(zone), refetchInterval: false });
  const pools = useMemo(() => new Map((poolList.data ?? []).map((p) => [`${p.name} ${p.type}`, p.id])), [poolList.data]);
  // Nor can they be chosen to delete together ("select all shown" leaves them out).
  const ownRecords = useMemo(() => records.data?.filter((r) => !pools.has(`${r.name} ${r.record_type}`)), [records.data, pools]);
  const ownRows = useMemo(() => rows.filter((r) => !pools.has(`${r.name} ${r.record_type}`)), [rows, pools]);
  const selection = useSelectionState(ownRecords, ownRows);
  const pendingIds = usePendingIds(zone);
  const update = useUpdateRecord(zone);
  const row = useRowActions(zone, update);
  const edit = useEditingRecord(domain, records.data, update, row.disarm);
  const add = useAddingRecord(domain, records.data);

  const renderEditor = (r: DnsRecord) => <RecordForm domain={domain} records={records.data} ips={ranges} {...edit.editorOf(r)} submitLabel="Save record" />;

  return (
    <section className="card" aria-labelledby="records-title">
      <div className="card-header">
        <h2 id="records-title">Records</h2>
        {readOnly ? (
          <span className="muted small">Read only</span>
        ) : (
          <button ref={add.button} type="button" className="btn btn-primary" aria-expanded={add.open} onClick={add.toggle}>
            {add.open ? 'Close form' : '+ Add record'}
          </button>
        )}
      </div>

      {readOnlyReason ? <p className="muted">{readOnlyReason}</p> : null}
      {add.open && !readOnly ? (
        <div className="add-panel">
          <RecordForm key={add.key} domain={domain} records={records.data} ips={ranges} {...add.form} submitLabel="Add record" />
        </div>
      ) : null}

      <RecordsToolbar filters={filters} shown={rows.length} total={records.data?.length} />

      {readOnly ? null : <BulkDeleteBar zone={zone} chosen={selection.chosen} hidden={selection.hidden} onClear={selection.clear} />}

      {records.isPending ? (
        <LoadingState label="Loading records…" />
      ) : records.isError ? (
        <ErrorState error={records.error} retry={() => void records.refetch()} title="Could not load the records" />
      ) : (
        <RecordsTable
          domain={domain}
          rows={rows}
          total={records.data.length}
          ips={ranges}
          sort={sort}
          onSort={onSort}
          pendingIds={pendingIds}
          armedId={row.armedId}
          onArm={row.onArm}
          editingId={edit.editingId}
          renderEditor={renderEditor}
          onEdit={edit.startEdit}
          onDelete={row.onDelete}
          onToggle={row.onToggle}
          selected={selection.selected}
          allShown={selection.allShown}
          onSelect={selection.onSelect}
          onSelectAllShown={selection.onSelectAllShown}
          readOnly={readOnly}
          pools={pools}
        />
      )}
    </section>
  );
}
