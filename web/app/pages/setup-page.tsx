/**
 * Before real use (administrators only): what this server still needs set, read from the server
 * itself, with the move of zones still on other name servers. docs/operations.md lists the same.
 */
import { useAccount } from '../../features/account/get-account';
import { useReadiness } from '../../features/setup/get-readiness';
import { ReadinessList } from '../../features/setup/readiness-list';
import { usePageTitle } from '../../lib/page-title';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';

export function Component() {
  usePageTitle('Before real use');
  const account = useAccount();
  const isAdmin = account.data?.is_admin ?? false;
  const readiness = useReadiness(isAdmin);
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Before real use</h1>
          <p className="muted">What to set before this server answers for real zones. Settings are environment variables (or .env) read at start: change them, then restart.</p>
        </div>
      </header>
      <section className="card">
        {account.isPending || (isAdmin && readiness.isPending) ? (
          <LoadingState label="Loading…" />
        ) : !isAdmin ? (
          <EmptyState title="Only administrators see this">An administrator sets up the server.</EmptyState>
        ) : readiness.isError ? (
          <ErrorState error={readiness.error} retry={() => void readiness.refetch()} title="Could not read the server's settings" />
        ) : readiness.data ? (
          <ReadinessList readiness={readiness.data} />
        ) : null}
      </section>
    </div>
  );
}
