/** TSIG keys: create one (its secret shown once), see what each may do, revoke. The page number lives in the URL. */
import { useState } from 'react';
import { CreateTsigKeyForm } from '../../features/tsig-keys/create-tsig-key-form';
import { useTsigKeys } from '../../features/tsig-keys/list-tsig-keys';
import { RevokeTsigKeyDialog } from '../../features/tsig-keys/revoke-tsig-key-dialog';
import { TsigKeysTable } from '../../features/tsig-keys/tsig-keys-table';
import type { TsigKey } from '../../lib/api-types';
import { usePageParam } from '../../lib/page-param';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';

export function Component() {
  usePageTitle('TSIG keys');
  const { page, setPage } = usePageParam();
  const [revoking, setRevoking] = useState<TsigKey | null>(null);
  const q = useTsigKeys(page);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>TSIG keys</h1>
          <p className="muted">
            Keys sign DNS messages (RFC 8945): zone transfers to your secondaries, and the tools that change records over DNS (nsupdate, certbot, lego, external-dns). Give each one only the scope it
            needs.
          </p>
        </div>
      </header>

      <section className="card">
        <CreateTsigKeyForm />
      </section>

      <section className="card" aria-label="Your TSIG keys">
        {q.isPending ? (
          <LoadingState label="Loading keys…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load your TSIG keys" />
        ) : q.data.total === 0 ? (
          <EmptyState title="No TSIG keys yet">Create one above for a secondary or an ACME client.</EmptyState>
        ) : (
          <>
            <TsigKeysTable keys={q.data.items} onRevoke={setRevoking} />
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Key pages" />
          </>
        )}
      </section>
      <RevokeTsigKeyDialog tsigKey={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}
