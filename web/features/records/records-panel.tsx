/**
 * The records section of the domain editor: filter by name and type, sort, and add, edit or
 * delete in place, or select several and delete them as one change set. Every change shows at
 * once (optimistic) and is undone, with the server's message on the form, if the server
 * refuses it; a refusal because the zone changed elsewhere (412) is told by the conflict
 * banner, and the form keeps the draft for after Reload. `readOnly` (a team member whose role
 * only reads the zone) leaves the filters and sorting and takes every control that writes away.
 */
import { useMutationState } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSetFilters } from '../../lib/page-param';
import { WRITABLE_TYPES } from '../../../server/core/record-types';
import { ApiError } from '../../lib/api-client';
import type { DnsRecord, Domain } from '../../lib/api-types';
import { formatNumber } from '../../lib/format';
import { SelectField, TextField } from '../../ui/field';
import { ErrorState, LoadingState } from '../../ui/states';
import { useToast } from '../../ui/toast';
import { useZoneConflict } from '../../ui/zone-conflict';
import { isStale } from '../../lib/zone-serial';
import { useAllIps } from '../../lib/list-all-ips';
import { nextTempId, useCreateRecord } from './create-record';
import { useDeleteRecord } from './delete-record';
import { BulkDeleteBar } from './bulk-delete-bar';
import { useRecords } from './list-records';
import { recordMutationKey } from './record-cache';
import { draftOf, emptyDraft, optimisticRecord, type Checked, type Draft } from './record-draft';
import { RecordForm } from './record-form';
import { filterAndSort, type Sort, type SortKey } from './record-order';
import { selectAllState, selectedRecords, withAllShown } from './record-selection';
import { RecordsTable } from './records-table';
import { useUpdateRecord } from './update-record';

/** After the inline editor closes, keyboard focus goes back to the row's Edit button. */
function focusEditButton(r: DnsRecord): void {
  requestAnimationFrame(() => document.querySelector<HTMLButtonElement>(`button[aria-label="${CSS.escape(`Edit ${r.fqdn} ${r.record_type}`)}"]`)?.focus());
}

const asApiError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(0, 'client', e instanceof Error ? e.message : String(e)));

export function RecordsPanel({ domain, readOnly = false }: { domain: Domain; readOnly?: boolean }) {
  const zone = domain.name;
  const records = useRecords(zone);
  const ips = useAllIps();
  const toast = useToast();
  const [params] = useSearchParams();
  const setFilters = useSetFilters();
  const nameFilter = params.get('name') ?? '';
  const typeFilter = params.get('type') ?? '';
  const [sort, setSort] = useState<Sort>({ key: 'name', dir: 1 });
  const [adding, setAdding] = useState(false);
  const [addDraft, setAddDraft] = useState<Draft>(() => emptyDraft());
  const [addError, setAddError] = useState<ApiError | null>(null);
  // A new key gives the add form a fresh start (no stale messages, focus on Name) after each submit.
  const [addKey, setAddKey] = useState(0);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [editDraft, setEditDraft] = useState<Draft>(() => emptyDraft());
  const [editError, setEditError] = useState<ApiError | null>(null);
  const [armedId, setArmedId] = useState<number | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const { conflict } = useZoneConflict();

  const addButton = useRef<HTMLButtonElement>(null);
  const create = useCreateRecord(zone);
  const update = useUpdateRecord(zone);
  const del = useDeleteRecord(zone);
  const pending = useMutationState({
    filters: { mutationKey: recordMutationKey(zone), status: 'pending' },
    select: (m) => (m.state.variables as { before?: DnsRecord } | undefined)?.before?.id ?? -1,
  });
  const pendingIds = useMemo(() => new Set(pending), [pending]);

  const deferredName = useDeferredValue(nameFilter);
  const deferredType = useDeferredValue(typeFilter);
  const rows = useMemo(() => filterAndSort(records.data ?? [], deferredName, deferredType, sort), [records.data, deferredName, deferredType, sort]);
  const chosen = useMemo(() => selectedRecords(records.data ?? [], selected), [records.data, selected]);
  const chosenHidden = useMemo(() => {
    const shown = new Set(rows.map((r) => r.id));
    return chosen.filter((r) => !shown.has(r.id)).length;
  }, [rows, chosen]);
  const allShown = useMemo(() => selectAllState(rows, selected), [rows, selected]);
  const onSelect = useCallback((id: number, on: boolean) => setSelected((s) => (on ? new Set(s).add(id) : new Set([...s].filter((x) => x !== id)))), []);
  const onSelectAllShown = useCallback((on: boolean) => setSelected((s) => withAllShown(rows, s, on)), [rows]);
  const clearSelection = useCallback(() => setSelected(new Set()), []);
  // Once the user has reloaded after a conflict, the 412 on a form no longer applies.
  const current = (e: ApiError | null) => (e && isStale(e) && !conflict ? null : e);

  const setFilter = (key: 'name' | 'type', value: string) => setFilters({ [key]: value }, { replace: true });
  const onSort = useCallback((key: SortKey) => setSort((s) => ({ key, dir: s.key === key ? (s.dir === 1 ? -1 : 1) : 1 })), []);

  const submitAdd = (rec: NonNullable<Checked['record']>) => {
    const draft = addDraft;
    const optimistic = optimisticRecord(nextTempId(), rec, domain, records.data ?? []);
    setAddError(null);
    setAddDraft(emptyDraft(draft.type));
    setAddKey((k) => k + 1);
    create.mutate(
      { input: { name: draft.name.trim() || '@', record_type: rec.record_type, content: rec.content, ...(rec.ttl ? { ttl: rec.ttl } : {}) }, optimistic },
      {
        onSuccess: (r) => toast('success', `Added ${r.fqdn} ${r.record_type}`),
        onError: (e) => {
          setAdding(true);
          setAddDraft(draft);
          setAddError(asApiError(e));
        },
      },
    );
  };

  const startEdit = useCallback((r: DnsRecord) => {
    setArmedId(null);
    setEditError(null);
    setEditDraft(draftOf(r));
    setEditingId(r.id);
  }, []);

  const submitEdit = (before: DnsRecord) => (rec: NonNullable<Checked['record']>) => {
    const draft = editDraft;
    const optimistic = optimisticRecord(before.id, rec, domain, records.data ?? [], before);
    const patch = {
      ...(rec.name !== before.name ? { name: draft.name.trim() || '@' } : {}),
      ...(rec.record_type !== before.record_type ? { record_type: rec.record_type } : {}),
      ...(rec.content !== before.content ? { content: rec.content } : {}),
      ...(rec.ttl !== undefined && rec.ttl !== before.ttl ? { ttl: rec.ttl } : {}),
    };
    setEditingId(null);
    focusEditButton(optimistic);
    if (Object.keys(patch).length === 0) return;
    update.mutate(
      { before, patch, optimistic },
      {
        onSuccess: (r) => toast('success', `Saved ${r.fqdn} ${r.record_type}`),
        onError: (e) => {
          setEditDraft(draft);
          setEditError(asApiError(e));
          setEditingId(before.id);
          if (!isStale(e)) toast('error', `Could not save ${before.fqdn}: ${e.message}`);
        },
      },
    );
  };

  const onDelete = useCallback(
    (r: DnsRecord) => {
      setArmedId(null);
      del.mutate(r, {
        onSuccess: () => toast('success', `Deleted ${r.fqdn} ${r.record_type}`),
        onError: (e) => {
          if (!isStale(e)) toast('error', `Could not delete ${r.fqdn} ${r.record_type}: ${e.message}`);
        },
      });
    },
    [del, toast],
  );

  const onToggle = useCallback(
    (r: DnsRecord) => {
      setArmedId(null);
      const { disabled: _was, ...served } = r;
      const optimistic: DnsRecord = r.disabled ? served : { ...r, disabled: true };
      update.mutate(
        { before: r, patch: { disabled: !r.disabled }, optimistic },
        {
          onSuccess: (after) => toast('success', after.disabled ? `Disabled ${after.fqdn} ${after.record_type}: kept, no longer served` : `Enabled ${after.fqdn} ${after.record_type}: served again`),
          onError: (e) => {
            if (!isStale(e)) toast('error', `Could not ${r.disabled ? 'enable' : 'disable'} ${r.fqdn} ${r.record_type}: ${e.message}`);
          },
        },
      );
    },
    [update, toast],
  );

  const renderEditor = (r: DnsRecord) => (
    <RecordForm
      domain={domain}
      draft={editDraft}
      onDraft={(d) => {
        setEditDraft(d);
        setEditError(null);
      }}
      records={records.data}
      ips={ips.data}
      editing={r}
      serverError={current(editError)}
      onSubmit={submitEdit(r)}
      onCancel={() => {
        setEditingId(null);
        focusEditButton(r);
      }}
      submitLabel="Save record"
    />
  );

  const total = records.data?.length ?? 0;

  return (
    <section className="card" aria-labelledby="records-title">
      <div className="card-header">
        <h2 id="records-title">Records</h2>
        {readOnly ? (
          <span className="muted small">Read only</span>
        ) : (
          <button
            ref={addButton}
            type="button"
            className="btn btn-primary"
            aria-expanded={adding}
            onClick={() => {
              setAdding((a) => !a);
              setAddError(null);
            }}
          >
            {adding ? 'Close form' : '+ Add record'}
          </button>
        )}
      </div>

      {adding && !readOnly ? (
        <div className="add-panel">
          <RecordForm
            key={addKey}
            domain={domain}
            draft={addDraft}
            onDraft={(d) => {
              setAddDraft(d);
              setAddError(null);
            }}
            records={records.data}
            ips={ips.data}
            serverError={current(addError)}
            onSubmit={submitAdd}
            onCancel={() => {
              setAdding(false);
              // Escape (or Cancel) hands focus back to the button that opened the form, not to <body>.
              addButton.current?.focus();
            }}
            submitLabel="Add record"
          />
        </div>
      ) : null}

      <form className="toolbar" role="search" aria-label="Filter records" onSubmit={(e) => e.preventDefault()}>
        <TextField label="Filter by name" type="search" value={nameFilter} placeholder="www, _dmarc, @" spellCheck={false} onChange={(e) => setFilter('name', e.target.value)} className="grow" />
        <SelectField label="Type" value={typeFilter} onChange={(e) => setFilter('type', e.target.value)}>
          <option value="">All types</option>
          {WRITABLE_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.type}
            </option>
          ))}
        </SelectField>
        {records.data ? (
          <p className="toolbar-note muted" aria-live="polite" data-testid="records-count">
            {rows.length === total ? `${formatNumber(total)} records` : `${formatNumber(rows.length)} of ${formatNumber(total)} records`}
          </p>
        ) : null}
      </form>

      {readOnly ? null : <BulkDeleteBar zone={zone} chosen={chosen} hidden={chosenHidden} onClear={clearSelection} />}

      {records.isPending ? (
        <LoadingState label="Loading records…" />
      ) : records.isError ? (
        <ErrorState error={records.error} retry={() => void records.refetch()} title="Could not load the records" />
      ) : (
        <RecordsTable
          domain={domain}
          rows={rows}
          total={total}
          ips={ips.data}
          sort={sort}
          onSort={onSort}
          pendingIds={pendingIds}
          armedId={armedId}
          onArm={setArmedId}
          editingId={editingId}
          renderEditor={renderEditor}
          onEdit={startEdit}
          onDelete={onDelete}
          onToggle={onToggle}
          selected={selected}
          allShown={allShown}
          onSelect={onSelect}
          onSelectAllShown={onSelectAllShown}
          readOnly={readOnly}
        />
      )}
    </section>
  );
}
