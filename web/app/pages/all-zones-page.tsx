/**
 * All zones (administrators only): every account's zones, searchable by zone name and by the user
 * or team holding it, a page at a time. A zone opens read-only: administrators read every account's
 * zones and change only their own. The search and page live in the URL.
 */
import { useEffect, useState } from 'react';
import { useAccount } from '../../features/account/get-account';
import { AccountZonesTable } from '../../features/admin-zones/account-zones-table';
import { useAccountZones } from '../../features/admin-zones/list-account-zones';
import { usePageParam } from '../../lib/page-param';
import { usePageTitle } from '../../lib/page-title';
import { TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState, Spinner } from '../../ui/states';

export function Component() {
  usePageTitle('All zones');
  const account = useAccount();
  const isAdmin = account.data?.is_admin ?? false;
  const { page, setPage, params, setFilters } = usePageParam();
  const search = params.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const q = useAccountZones(search, page, isAdmin);

  // Typing updates the URL (and the query) once the user pauses.
  useEffect(() => {
    if (typed.trim() === search) return;
    const t = setTimeout(() => setFilters({ q: typed.trim() }, { replace: true }), 250);
    return () => clearTimeout(t);
  }, [typed, search, setFilters]);

  const header = (
    <header className="page-header">
      <div>
        <h1>All zones</h1>
        <p className="muted">Every account&rsquo;s zones. You can open and read any of them; you change only your own.</p>
      </div>
    </header>
  );
  if (account.isPending) return <LoadingState label="Loading…" />;
  if (!isAdmin) {
    return (
      <div className="page">
        {header}
        {account.isError ? (
          <ErrorState error={account.error} retry={() => void account.refetch()} title="Could not load your account" />
        ) : (
          <EmptyState title="Only administrators see every account's zones">Your own zones are on the Domains page.</EmptyState>
        )}
      </div>
    );
  }
  return (
    <div className="page">
      {header}
      <section className="card" aria-label="All zones">
        <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
          <TextField label="Search" type="search" value={typed} placeholder="Zone, user or team" onChange={(e) => setTyped(e.target.value)} className="grow" />
          {q.isFetching && !q.isPending ? <Spinner label="Updating" /> : null}
        </form>
        {q.isPending ? (
          <LoadingState label="Loading zones…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the zones" />
        ) : q.data.total === 0 ? (
          <EmptyState title={search ? `No zone matches “${search}”` : 'No zones yet'} />
        ) : (
          <>
            <AccountZonesTable zones={q.data.items} />
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Zone pages" />
          </>
        )}
      </section>
    </div>
  );
}
