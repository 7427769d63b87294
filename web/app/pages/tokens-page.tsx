/** API tokens: create one (its secret shown once), see when each was used, revoke. The page number lives in the URL. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { CreateTokenForm } from '../../features/tokens/create-token-form';
import { useTokens } from '../../features/tokens/list-tokens';
import { RevokeTokenDialog } from '../../features/tokens/revoke-token-dialog';
import { TokensTable } from '../../features/tokens/tokens-table';
import type { ApiToken } from '../../lib/api-types';
import { usePageParam } from '../../lib/page-param';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';

export function Component() {
  usePageTitle('API tokens');
  const { page, setPage } = usePageParam();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const q = useTokens(page);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>API tokens</h1>
          <p className="muted">
            Tokens let scripts and tools use the zonedeck API as you. Give each one a label and, ideally, an expiry. Newest first; your dashboard sign-ins are on your{' '}
            <Link to={routes.account}>Account</Link> page.
          </p>
        </div>
      </header>

      <section className="card">
        <CreateTokenForm />
      </section>

      <section className="card" aria-label="Your API tokens">
        {q.isPending ? (
          <LoadingState label="Loading tokens…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load your tokens" />
        ) : q.data.total === 0 ? (
          <EmptyState title="No API tokens yet">Create one above to use the API from a script.</EmptyState>
        ) : (
          <>
            <TokensTable tokens={q.data.items} onRevoke={setRevoking} />
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Token pages" />
          </>
        )}
      </section>
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </div>
  );
}
