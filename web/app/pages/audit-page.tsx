/**
 * The account audit log: sign-ins (and failed ones), sign-outs, passwords, tokens, keys, team
 * memberships and user administration, newest first. Your own events; your teams' as their
 * owner or admin; everyone's as an administrator. Filters and the page live in the URL, so a
 * view can be linked.
 */
import { useCallback, useEffect, useState } from 'react';
import { AuditTable } from '../../features/audit/audit-table';
import { auditFilterOfParams, KIND_LABELS } from '../../features/audit/audit-words';
import { useAudit } from '../../features/audit/list-audit';
import { usePageParam } from '../../lib/page-param';
import { usePageTitle } from '../../lib/page-title';
import { SelectField, TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState, Spinner } from '../../ui/states';

/** A text filter that updates the URL once the user pauses typing, and follows the URL when it changes otherwise (Back). */
function useTypedFilter(value: string, set: (v: string) => void) {
  const [typed, setTyped] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (typed.trim() !== value) setTyped(value);
  }
  useEffect(() => {
    if (typed.trim() === value) return;
    const t = setTimeout(() => set(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed, value, set]);
  return [typed, setTyped] as const;
}

export function Component() {
  usePageTitle('Audit log');
  const { setPage, params, setFilters } = usePageParam();
  const filter = auditFilterOfParams(params);
  const q = useAudit(filter);
  const set = useCallback((changes: Record<string, string>) => setFilters(changes, { replace: true }), [setFilters]);
  const setUsername = useCallback((v: string) => set({ username: v }), [set]);
  const setTeam = useCallback((v: string) => set({ team: v }), [set]);
  const [username, setTypedUsername] = useTypedFilter(filter.username, setUsername);
  const [team, setTypedTeam] = useTypedFilter(filter.team, setTeam);
  const filtered = filter.kind !== '' || filter.username !== '' || filter.team !== '';

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Audit log</h1>
          <p className="muted">Who signed in (and who failed to), from where, and every change to passwords, tokens, keys, teams and users, newest first.</p>
        </div>
      </header>

      <section className="card" aria-label="Audit events">
        <form className="toolbar" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
          <SelectField label="Event" name="kind" value={filter.kind} onChange={(e) => set({ kind: e.target.value })}>
            <option value="">All events</option>
            {Object.entries(KIND_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          <TextField label="User" name="username" type="search" value={username} placeholder="Username" spellCheck={false} autoComplete="off" onChange={(e) => setTypedUsername(e.target.value)} />
          <TextField label="Team" name="team" type="search" value={team} placeholder="Team name" spellCheck={false} autoComplete="off" onChange={(e) => setTypedTeam(e.target.value)} />
          {q.isFetching && !q.isPending ? <Spinner label="Updating" /> : null}
          {q.data ? (
            <p className="toolbar-note muted" aria-live="polite" data-testid="audit-count">
              {q.data.total === 1 ? '1 event' : `${q.data.total.toLocaleString('en')} events`}
              {filtered ? ' match' : ''}
            </p>
          ) : null}
        </form>

        {q.isPending ? (
          <LoadingState label="Loading the audit log…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the audit log" />
        ) : q.data.total === 0 ? (
          filtered ? (
            <EmptyState title="No event matches these filters">
              <button
                type="button"
                className="btn btn-link"
                onClick={() => {
                  setTypedUsername('');
                  setTypedTeam('');
                  set({ kind: '', username: '', team: '' });
                }}
              >
                Show every event
              </button>
            </EmptyState>
          ) : (
            <EmptyState title="No events kept">Events older than HISTORY_DAYS are pruned.</EmptyState>
          )
        ) : (
          <>
            <AuditTable events={q.data.items} />
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Audit pages" />
          </>
        )}
      </section>
    </div>
  );
}
