/**
 * Users (administrators only): every account of the service, searchable; create one (its
 * one-time password shown once), disable or enable, grant or revoke admin, reset a password or
 * the second factors (each needs a sign-in within 10 minutes: the password is asked again when
 * not); see and change their IP ranges. The search and page live in the URL.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { useAccount } from '../../features/account/get-account';
import { CreateUserForm } from '../../features/users/create-user-form';
import { PasswordSignInCard } from '../../features/users/password-sign-in-card';
import { ResetFactorsDialog } from '../../features/users/reset-factors-dialog';
import { ResetPasswordDialog } from '../../features/users/reset-password-dialog';
import { useUserActions } from '../../features/users/user-actions';
import { UserIpsDialog } from '../../features/users/user-ips-dialog';
import { UsersListCard } from '../../features/users/users-list-card';
import type { User } from '../../lib/api-types';
import { usePageTitle } from '../../lib/page-title';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { ReauthenticateDialog } from '../../ui/reauthenticate';

function UsersHeader() {
  return (
    <header className="page-header">
      <div>
        <h1>Users</h1>
        <p className="muted">Everyone who can sign in to this zonedeck. New users get a one-time password to sign in with; they change it on their Account page.</p>
      </div>
      <Link to={routes.setup} className="btn">
        Before real use
      </Link>
    </header>
  );
}

export function Component() {
  usePageTitle('Users');
  const account = useAccount();
  const [resetting, setResetting] = useState<User | null>(null);
  const [unfactoring, setUnfactoring] = useState<User | null>(null);
  const [ranging, setRanging] = useState<User | null>(null);
  const actions = useUserActions();
  const isAdmin = account.data?.is_admin ?? false;

  if (account.isPending) return <LoadingState label="Loading…" />;
  if (!isAdmin) {
    return (
      <div className="page">
        <UsersHeader />
        {account.isError ? (
          <ErrorState error={account.error} retry={() => void account.refetch()} title="Could not load your account" />
        ) : (
          <EmptyState title="Only administrators manage users">Ask an administrator to create an account or reset a password.</EmptyState>
        )}
      </div>
    );
  }

  return (
    <div className="page">
      <UsersHeader />
      <section className="card">
        <CreateUserForm />
      </section>
      <UsersListCard busy={actions.busy} onChange={actions.change} onResetPassword={setResetting} onResetFactors={setUnfactoring} onIpRanges={setRanging} />
      <PasswordSignInCard />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <UserIpsDialog user={ranging} onClose={() => setRanging(null)} />
      <ResetFactorsDialog user={unfactoring} onClose={() => setUnfactoring(null)} onConfirm={actions.resetFactorsOf} />
      <ReauthenticateDialog error={actions.askAgain?.error} onConfirmed={actions.retry} onCancel={actions.cancelAskAgain} />
    </div>
  );
}
