/**
 * A zone's history: every change set, newest first, with who made it, from where, when, the
 * comment and the diff; filters by source and user and the page live in the URL, so a view
 * can be linked. Any change can be reverted after a preview.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { DomainTabs } from '../../features/domains/domain-tabs';
import { useDomain } from '../../features/domains/get-domain';
import { zoneAccess } from '../../features/domains/zone-access';
import { AuditTable } from '../../features/audit/audit-table';
import { useTeamEvents } from '../../features/audit/list-audit';
import { SOURCE_LABELS } from '../../lib/actor-words';
import { ChangeItem } from '../../features/history/change-item';
import { filterOfParams, useChanges } from '../../features/history/list-changes';
import { RevertDialog } from '../../features/history/revert-dialog';
import { ApiError } from '../../lib/api-client';
import type { ChangeSet } from '../../lib/api-types';
import { usePageParam } from '../../lib/page-param';
import { routes } from '../../lib/paths';
import { SelectField, TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState, Spinner } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name, 'History');
  const domain = useDomain(name);
  const { page, setPage, params, setFilters } = usePageParam();
  const { source, username } = filterOfParams(params);
  const [typed, setTyped] = useState(username);
  const [reverting, setReverting] = useState<ChangeSet | null>(null);
  const q = useChanges(name, { source, username, page });
  const team = domain.data?.team;
  const teamEvents = useTeamEvents(name, Boolean(team));

  const set = useCallback((changes: Record<string, string>) => setFilters(changes, { replace: true }), [setFilters]);

  // Typing a user updates the URL (and the query) once the user pauses.
  useEffect(() => {
    if (typed.trim() === username) return;
    const t = setTimeout(() => set({ user: typed.trim() }), 300);
    return () => clearTimeout(t);
  }, [typed, username, set]);

  if (domain.isError && domain.error instanceof ApiError && domain.error.status === 404) {
    return (
      <div className="page">
        <EmptyState title={`No domain named ${name}`}>
          It may have been deleted, or it belongs to another account. <Link to={routes.domains}>Back to your domains</Link>
        </EmptyState>
      </div>
    );
  }
  const filtered = source !== '' || username !== '';
  const access = domain.data ? zoneAccess(domain.data) : undefined;
  // Reverting writes the zone: not for a member who may only read it.
  const canRevert = access?.records ?? false;

  return (
    <div className="page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={routes.domains}>Domains</Link> <span aria-hidden="true">/</span> <Link to={routes.domain(name)}>{name}</Link> <span aria-hidden="true">/</span>{' '}
        <span aria-current="page">History</span>
      </nav>
      <header className="page-header">
        <div>
          <h1 className="mono-title">{name}</h1>
          <p className="muted">Every change to this zone, newest first: who made it, from where, and what it changed.{access && !access.records ? '' : ' Any of them can be reverted after a preview.'}</p>
        </div>
      </header>
      <DomainTabs name={name} access={access} />

      <section className="card" aria-label={`History of ${name}`}>
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
              <button
                type="button"
                className="btn btn-link"
                onClick={() => {
                  setTyped('');
                  set({ source: '', user: '' });
                }}
              >
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
                <ChangeItem key={c.id} domain={name} change={c} onRevert={canRevert ? setReverting : undefined} />
              ))}
            </ol>
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="History pages" />
          </>
        )}
      </section>
      {team && teamEvents.data && teamEvents.data.total > 0 ? (
        <section className="card" aria-labelledby="team-events-title">
          <h2 id="team-events-title">Role changes in team {team}</h2>
          <p className="muted">Who could reach this zone, and with which role: the latest {Math.min(teamEvents.data.items.length, teamEvents.data.total)} of {teamEvents.data.total}.</p>
          <AuditTable events={teamEvents.data.items} />
        </section>
      ) : null}
      <RevertDialog domain={name} change={reverting} onClose={() => setReverting(null)} />
    </div>
  );
}
