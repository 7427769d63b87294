/**
 * The list of users, searchable (the search and the page live in the URL, the search is sent
 * once the administrator pauses), with each user's actions.
 */
import { useEffect, useState } from 'react';
import type { User } from '../../lib/api-types';
import { useSession } from '../../lib/get-session';
import { usePageParam } from '../../lib/page-param';
import { TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState, Spinner } from '../../ui/states';
import { useUsers } from './list-users';
import type { UserPatch } from './update-user';
import { UsersTable } from './users-table';

interface Props {
  busy: string | null;
  onChange: (u: User, patch: UserPatch) => void;
  onResetPassword: (u: User) => void;
  onResetFactors: (u: User) => void;
  onIpRanges: (u: User) => void;
}

export function UsersListCard({ busy, onChange, onResetPassword, onResetFactors, onIpRanges }: Props) {
  const me = useSession().data?.username;
  const { page, setPage, params, setFilters } = usePageParam();
  const search = params.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const q = useUsers(search, page, true);

  useEffect(() => {
    if (typed.trim() === search) return;
    const t = setTimeout(() => setFilters({ q: typed.trim() }, { replace: true }), 250);
    return () => clearTimeout(t);
  }, [typed, search, setFilters]);

  return (
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
            busy={busy}
            onToggleDisabled={(u) => onChange(u, { disabled: !u.disabled })}
            onToggleAdmin={(u) => onChange(u, { is_admin: !u.is_admin })}
            onResetPassword={onResetPassword}
            onResetFactors={onResetFactors}
            onIpRanges={onIpRanges}
          />
          <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="User pages" />
        </>
      )}
    </section>
  );
}
