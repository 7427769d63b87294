/**
 * Users (administrators only): every account of the service, searchable; create one (its
 * one-time password shown once), disable or enable, grant or revoke admin, reset a password or
 * the second factors. Each change needs a sign-in within 10 minutes: the password is asked again
 * when not. The search and page live in the URL.
 */
import { useEffect, useState } from 'react';
import { useAccount } from '../../features/account/get-account';
import { useSession } from '../../lib/get-session';
import { CreateUserForm } from '../../features/users/create-user-form';
import { PasswordSignInCard } from '../../features/users/password-sign-in-card';
import { useUsers } from '../../features/users/list-users';
import { ResetPasswordDialog } from '../../features/users/reset-password-dialog';
import { useResetSecondFactors, useUpdateUser, type UserPatch } from '../../features/users/update-user';
import { UsersTable } from '../../features/users/users-table';
import type { User } from '../../lib/api-types';
import { usePageParam } from '../../lib/page-param';
import { usePageTitle } from '../../lib/page-title';
import { TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState, Spinner } from '../../ui/states';
import { useToast } from '../../ui/toast';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';

function patchWords(u: User, patch: UserPatch): string {
  if ('disabled' in patch) return patch.disabled ? `Disabled ${u.username}: they can no longer sign in or use their tokens` : `Enabled ${u.username}`;
  return patch.is_admin ? `${u.username} is now an administrator` : `${u.username} is no longer an administrator`;
}

export function Component() {
  usePageTitle('Users');
  const account = useAccount();
  const me = useSession().data?.username;
  const { page, setPage, params, setFilters } = usePageParam();
  const search = params.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const [resetting, setResetting] = useState<User | null>(null);
  // An act refused for an old sign-in: the password is asked again, then the act is sent again.
  const [askAgain, setAskAgain] = useState<{ error: unknown; retry: () => void } | null>(null);
  const isAdmin = account.data?.is_admin ?? false;
  const q = useUsers(search, page, isAdmin);
  const update = useUpdateUser();
  const resetFactors = useResetSecondFactors();
  const toast = useToast();

  // Typing updates the URL (and the query) once the user pauses.
  useEffect(() => {
    if (typed.trim() === search) return;
    const t = setTimeout(() => setFilters({ q: typed.trim() }, { replace: true }), 250);
    return () => clearTimeout(t);
  }, [typed, search, setFilters]);

  const change = (u: User, patch: UserPatch) =>
    update.mutate(
      { username: u.username, patch },
      {
        onSuccess: () => toast('success', patchWords(u, patch)),
        onError: (e) => (needsReauthentication(e) ? setAskAgain({ error: e, retry: () => change(u, patch) }) : toast('error', `Could not change ${u.username}: ${e.message}`)),
      },
    );
  const resetFactorsOf = (u: User) =>
    resetFactors.mutate(u.username, {
      onSuccess: () => toast('success', `${u.username} signs in with their password alone now`),
      onError: (e) => (needsReauthentication(e) ? setAskAgain({ error: e, retry: () => resetFactorsOf(u) }) : toast('error', `Could not reset ${u.username}: ${e.message}`)),
    });

  const header = (
    <header className="page-header">
      <div>
        <h1>Users</h1>
        <p className="muted">Everyone who can sign in to this zonedeck. New users get a one-time password to sign in with; they change it on their Account page.</p>
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
          <EmptyState title="Only administrators manage users">Ask an administrator to create an account or reset a password.</EmptyState>
        )}
      </div>
    );
  }

  return (
    <div className="page">
      {header}
      <section className="card">
        <CreateUserForm />
      </section>

      <section className="card" aria-label="Users">
        <form className="toolbar" role="search" aria-label="Search users" onSubmit={(e) => e.preventDefault()}>
          <TextField label="Search" type="search" value={typed} placeholder="Part of a username" spellCheck={false} autoComplete="off" onChange={(e) => setTyped(e.target.value)} className="grow" />
          {q.isFetching && !q.isPending ? <Spinner label="Updating" /> : null}
        </form>
        {q.isPending ? (
          <LoadingState label="Loading users…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the users" />
        ) : q.data.total === 0 ? (
          <EmptyState title={search ? `No user matches “${search}”` : 'No users'} />
        ) : (
          <>
            <UsersTable
              users={q.data.items}
              me={me}
              busy={update.isPending ? update.variables.username : null}
              onToggleDisabled={(u) => change(u, { disabled: !u.disabled })}
              onToggleAdmin={(u) => change(u, { is_admin: !u.is_admin })}
              onResetPassword={setResetting}
              onResetFactors={(u) =>
                window.confirm(`Remove the two-factor sign-in and every passkey of ${u.username}? They are signed out, and sign in with their password alone until they set them up again.`) && resetFactorsOf(u)
              }
            />
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="User pages" />
          </>
        )}
      </section>
      <PasswordSignInCard />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <ReauthenticateDialog
        error={askAgain?.error}
        onConfirmed={() => {
          askAgain?.retry();
          setAskAgain(null);
        }}
        onCancel={() => setAskAgain(null)}
      />
    </div>
  );
}
