/** Domains: search, page, create, delete. The search and page live in the URL, so they survive reloads and links. */
import { useEffect, useState } from 'react';
import { CreateDomainForm } from '../../features/domains/create-domain-form';
import { DeleteDomainDialog } from '../../features/domains/delete-domain-dialog';
import { DeletedDomainsSection } from '../../features/domains/deleted-domains-section';
import { DomainsTable } from '../../features/domains/domains-table';
import { useDomains } from '../../features/domains/list-domains';
import { usePageParam } from '../../lib/page-param';
import { TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState, Spinner } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';
import { useAccount } from '../../features/account/get-account';
import { useReadiness } from '../../features/setup/get-readiness';
import { dismissalKey, SetupNote } from '../../features/setup/readiness-list';

export function Component() {
  usePageTitle('Domains');
  const { page, setPage, params, setFilters } = usePageParam();
  const search = params.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const [deleting, setDeleting] = useState<string | null>(null);
  const q = useDomains(search, page);
  const readiness = useReadiness(useAccount().data?.is_admin ?? false);
  const [, setDismissed] = useState(0);

  // Typing updates the URL (and the query) once the user pauses.
  useEffect(() => {
    if (typed.trim() === search) return;
    const t = setTimeout(() => setFilters({ q: typed.trim() }, { replace: true }), 250);
    return () => clearTimeout(t);
  }, [typed, search, setFilters]);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Domains</h1>
          <p className="muted">Zones this service answers for with authority.</p>
        </div>
      </header>

      {readiness.data && !localStorage.getItem(dismissalKey(readiness.data)) ? (
        <SetupNote
          readiness={readiness.data}
          onDismiss={() => {
            localStorage.setItem(dismissalKey(readiness.data), '1');
            setDismissed((n) => n + 1);
          }}
        />
      ) : null}
      <section className="card">
        <CreateDomainForm />
      </section>

      <section className="card" aria-label="Your domains">
        <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
          <TextField label="Search" type="search" value={typed} placeholder="Part of a name" onChange={(e) => setTyped(e.target.value)} className="grow" />
          {q.isFetching && !q.isPending ? <Spinner label="Updating" /> : null}
        </form>
        {q.isPending ? (
          <LoadingState label="Loading domains…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load your domains" />
        ) : q.data.total === 0 ? (
          search ? (
            <EmptyState title={`No domain matches “${search}”`} />
          ) : (
            <EmptyState title="No domains yet">Create your first zone above; it gets SOA defaults and our name servers at its apex.</EmptyState>
          )
        ) : (
          <>
            <DomainsTable domains={q.data.items} onDelete={setDeleting} />
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Domain pages" />
          </>
        )}
      </section>
      <DeletedDomainsSection />
      <DeleteDomainDialog name={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
