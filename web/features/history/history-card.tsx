/**
 * A zone's change sets, newest first, filtered by source and user (the filters and the page
 * live in the URL, so a view can be linked; a typed user is sent once the typing pauses).
 * `onRevert` offers each change's revert; without it (a member who may only read) there is none.
 */
import { useCallback, useEffect, useState } from 'react';
import { SOURCE_LABELS } from '../../lib/actor-words';
import type { ChangeSet } from '../../lib/api-types';
import { usePageParam } from '../../lib/page-param';
import { SelectField, TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState, Spinner } from '../../ui/states';
import { ChangeItem } from './change-item';
import { filterOfParams, useChanges } from './list-changes';
import './history.css';

export function HistoryCard({ zone, onRevert }: { zone: string; onRevert?: (c: ChangeSet) => void }) {
  const { page, setPage, params, setFilters } = usePageParam();
  const { source, username } = filterOfParams(params);
  const [typed, setTyped] = useState(username);
  const q = useChanges(zone, { source, username, page });
  const set = useCallback((changes: Record<string, string>) => setFilters(changes, { replace: true }), [setFilters]);

  useEffect(() => {
    if (typed.trim() === username) return;
    const t = setTimeout(() => set({ user: typed.trim() }), 300);
    return () => clearTimeout(t);
  }, [typed, username, set]);

  const filtered = source !== '' || username !== '';
  const showAll = () => {
    setTyped('');
    set({ source: '', user: '' });
  };

  return (
    <section className="card" aria-label={`History of ${zone}`}>
      <form className="toolbar" role="search" aria-label="Filter the history" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="Source" value={source} onChange={(e) => set({ source: e.target.value })}>
          <option value="">All sources</option>
          {Object.entries(SOURCE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField label="User" type="search" value={typed} placeholder="Username" spellCheck={false} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
        {q.isFetching && !q.isPending ? <Spinner label="Updating" /> : null}
        {q.data ? (
          <p className="toolbar-note muted" aria-live="polite" data-testid="changes-count">
            {q.data.total === 1 ? '1 change' : `${q.data.total.toLocaleString('en')} changes`}
            {filtered ? ' match' : ''}
          </p>
        ) : null}
      </form>

      {q.isPending ? (
        <LoadingState label="Loading the history…" />
      ) : q.isError ? (
        <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the history" />
      ) : q.data.total === 0 ? (
        filtered ? (
          <EmptyState title="No change matches these filters">
            <button type="button" className="btn btn-link" onClick={showAll}>
              Show every change
            </button>
          </EmptyState>
        ) : (
          <EmptyState title="No changes kept">Changes older than the history’s retention (HISTORY_DAYS) are pruned.</EmptyState>
        )
      ) : (
        <>
          <ol className="changes">
            {q.data.items.map((c) => (
              <ChangeItem key={c.id} domain={zone} change={c} onRevert={onRevert} />
            ))}
          </ol>
          <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="History pages" />
        </>
      )}
    </section>
  );
}
