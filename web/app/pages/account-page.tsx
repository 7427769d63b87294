/** Your account: who you are, a new password (with the current one), and your dashboard sessions, any other of which you can end. */
import { useAccount } from '../../features/account/get-account';
import { ChangePasswordForm } from '../../features/account/change-password-form';
import { useSessions } from '../../features/account/list-sessions';
import { TwoFactorCard } from '../../features/account/two-factor-card';
import { PasskeysCard } from '../../features/account/passkeys-card';
import { IdentitiesCard } from '../../features/account/identities-card';
import { SessionsTable } from '../../features/account/sessions-table';
import { useSession } from '../../lib/get-session';
import { fullTime } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';

export function Component() {
  usePageTitle('Account');
  const session = useSession();
  const account = useAccount();
  const sessions = useSessions();
  const username = account.data?.username ?? session.data?.username ?? '';

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Account</h1>
          <dl className="facts">
            <div>
              <dt>Username</dt>
              <dd className="strong" data-testid="account-username">
                {username}
              </dd>
            </div>
            {account.data ? (
              <>
                <div>
                  <dt>Role</dt>
                  <dd>{account.data.is_admin ? <Badge tone="info">Administrator</Badge> : <Badge>User</Badge>}</dd>
                </div>
                <div>
                  <dt>Member since</dt>
                  <dd>
                    <time dateTime={account.data.created_at}>{fullTime(account.data.created_at)}</time>
                  </dd>
                </div>
              </>
            ) : null}
          </dl>
        </div>
      </header>

      {session.data?.enrolment_required ? (
        <Alert tone="warning" title="Set up two-factor sign-in to continue">
          This server requires a second factor for every account. Once it is on, the rest of the dashboard opens.
        </Alert>
      ) : null}
      <PasskeysCard />
      <TwoFactorCard />
      <IdentitiesCard />

      <section className="card" aria-labelledby="password-title">
        <h2 id="password-title">Change password</h2>
        <ChangePasswordForm username={username} />
      </section>

      <section className="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p className="muted">Where you are signed in to the dashboard. End a session you do not recognise, or one on a computer you no longer use.</p>
        {sessions.isPending ? (
          <LoadingState label="Loading your sessions…" />
        ) : sessions.isError ? (
          <ErrorState error={sessions.error} retry={() => void sessions.refetch()} title="Could not load your sessions" />
        ) : sessions.data.length === 0 ? (
          <EmptyState title="No sessions" />
        ) : (
          <SessionsTable sessions={sessions.data} />
        )}
      </section>
    </div>
  );
}
