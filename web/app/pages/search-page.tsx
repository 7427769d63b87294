/**
 * Search across every zone the user may read (by full name, type, content; an address network
 * finds every A/AAAA inside it), each hit linking into its zone's editor; and from a search, one
 * change across zones — replace the content found, or delete the records — previewed per zone,
 * applied as one batch, revertible as one. An administrator may search every account's zones
 * (`accounts=all`), read only: no change across them is offered. The search lives in the URL (`/search?content=…`).
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { BatchResult } from '../../lib/api-types';
import { usePageTitle } from '../../lib/page-title';
import { routes } from '../../lib/paths';
import { useAccount } from '../../features/account/get-account';
import { ApplyBatchButton, BatchOutcome } from '../../features/search/batch-steps';
import { isEmptySearch, useBulkChange, useSearch, type SearchFilter } from '../../features/search/search-records';
import { SelectField, TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { TableWrap } from '../../ui/table-wrap';
import { useToast } from '../../ui/toast';

function BulkForm({ filter }: { filter: SearchFilter }) {
  const [replacement, setReplacement] = useState('');
  const [action, setAction] = useState<'replace' | 'delete'>('replace');
  const [preview, setPreview] = useState<BatchResult | null>(null);
  const [done, setDone] = useState<BatchResult | null>(null);
  const bulk = useBulkChange();
  const toast = useToast();
  const body = (dryRun: boolean) => ({
    name: filter.name || undefined,
    type: filter.type || undefined,
    content: filter.content || undefined,
    match: filter.match,
    action,
    replacement: action === 'replace' ? replacement : undefined,
    dryRun,
  });
  const onPreview = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    bulk.mutate(body(true), { onSuccess: setPreview });
  };
  return (
    <form className="stack" onSubmit={onPreview} noValidate aria-label="Change every record found">
      <h2>Change every record found</h2>
      <div className="inline-form">
        <SelectField
          label="Action"
          value={action}
          onChange={(e) => {
            setAction(e.target.value as 'replace' | 'delete');
            setPreview(null);
          }}
        >
          <option value="replace">Replace their content with</option>
          <option value="delete">Delete them</option>
        </SelectField>
        {action === 'replace' ? (
          <TextField
            label="New content"
            name="replacement"
            value={replacement}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              setReplacement(e.target.value);
              setPreview(null);
            }}
            placeholder="192.0.2.20"
          />
        ) : null}
        <button type="submit" className="btn" disabled={bulk.isPending}>
          Preview change
        </button>
        <ApplyBatchButton
          preview={preview}
          pending={bulk.isPending}
          onApply={() =>
            bulk.mutate(body(false), {
              onSuccess: (r) => {
                setPreview(null);
                setDone(r);
                toast('success', `Changed ${r.zones.length} zones as one batch`);
              },
            })
          }
        />
      </div>
      <BatchOutcome error={bulk.error} preview={preview} done={done} onReverted={() => setDone(null)} />
    </form>
  );
}

export function Component() {
  usePageTitle('Search');
  const [params, setParams] = useSearchParams();
  const filter: SearchFilter = {
    name: params.get('name') ?? '',
    type: params.get('type') ?? '',
    content: params.get('content') ?? '',
    match: (params.get('match') as SearchFilter['match']) ?? 'contains',
    accounts: params.get('accounts') === 'all' ? 'all' : '',
  };
  const isAdmin = useAccount().data?.is_admin ?? false;
  const everyAccount = isAdmin && filter.accounts === 'all';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState(filter);
  const q = useSearch(filter, page);
  const set = (f: SearchFilter, p = 1) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries(f)) if (v && !(k === 'match' && v === 'contains')) next.set(k, v);
    if (p > 1) next.set('page', String(p));
    setParams(next);
  };
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Search all zones</h1>
          <p className="muted">Find records in every zone you may read. Content may be an address network (192.0.2.0/24) to find every A or AAAA record inside it.</p>
        </div>
      </header>
      <section className="card">
        <form
          className="inline-form"
          aria-label="Search records"
          onSubmit={(e) => {
            e.preventDefault();
            set(draft);
          }}
        >
          <TextField label="Name" name="name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} placeholder="www.example.com" spellCheck={false} />
          <TextField label="Type" name="type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })} placeholder="A" spellCheck={false} />
          <TextField label="Content" name="content" value={draft.content} onChange={(e) => setDraft({ ...draft, content: e.target.value })} placeholder="192.0.2.10" spellCheck={false} />
          <SelectField label="Match" value={draft.match} onChange={(e) => setDraft({ ...draft, match: e.target.value as SearchFilter['match'] })}>
            <option value="contains">contains</option>
            <option value="prefix">starts with</option>
            <option value="exact">exactly</option>
          </SelectField>
          {isAdmin ? (
            <label className="check">
              <input type="checkbox" name="accounts" checked={draft.accounts === 'all'} onChange={(e) => setDraft({ ...draft, accounts: e.target.checked ? 'all' : '' })} /> All accounts
            </label>
          ) : null}
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </form>
      </section>
      <section className="card" aria-label="Records found">
        {isEmptySearch(filter) ? (
          <EmptyState title="Search your zones">Give a name, a type or a content.</EmptyState>
        ) : q.isPending ? (
          <LoadingState label="Searching…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not search" />
        ) : q.data.total === 0 ? (
          <EmptyState title="Nothing found">{everyAccount ? "No record in any account's zones matches." : 'No record in your zones matches.'}</EmptyState>
        ) : (
          <>
            <p aria-live="polite">
              {q.data.total} {q.data.total === 1 ? 'record' : 'records'} found
            </p>
            <TableWrap label="Search results">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Zone</th>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">TTL</th>
                    <th scope="col">Content</th>
                  </tr>
                </thead>
                <tbody>
                  {q.data.items.map((r) => (
                    <tr key={r.id}>
                      <td>
                        <Link to={routes.domain(r.zone)}>{r.zone}</Link>
                      </td>
                      <td>{r.fqdn}</td>
                      <td>{r.record_type}</td>
                      <td>{r.ttl}</td>
                      <td className="mono">{r.content}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={(p) => set(filter, p)} label="Result pages" />
          </>
        )}
      </section>
      {/* Stays while the results refresh after a change, so the batch just applied can be reverted. */}
      {/* A change across zones stays within the zones you may change: not offered over every account's. */}
      {!isEmptySearch(filter) && !everyAccount ? (
        <section className="card">
          <BulkForm key={JSON.stringify(filter)} filter={filter} />
        </section>
      ) : null}
    </div>
  );
}
