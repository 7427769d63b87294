/**
 * Teams: the user's pending invitations (accept or decline), the user's teams, and a new one; an
 * administrator can list every team (`?all=true`). The page and that choice live in the URL.
 */
import { useAccount } from '../../features/account/get-account';
import { CreateTeamForm } from '../../features/teams/create-team-form';
import { useMyInvitations } from '../../features/teams/list-my-invitations';
import { MyInvitations } from '../../features/teams/my-invitations';
import { useTeams } from '../../lib/list-teams';
import { RoleList } from '../../features/teams/role-list';
import { TeamsTable } from '../../features/teams/teams-table';
import { usePageParam } from '../../lib/page-param';
import { usePageTitle } from '../../lib/page-title';
import { SelectField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';

export function Component() {
  usePageTitle('Teams');
  const { page, setPage, params, setFilters } = usePageParam();
  const isAdmin = useAccount().data?.is_admin ?? false;
  const all = isAdmin && params.get('all') === 'true';
  const q = useTeams(page, all);
  const invitations = useMyInvitations();

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Teams</h1>
          <p className="muted">A team owns zones together: each member reaches them with their role, and so do their API tokens and TSIG keys.</p>
          <RoleList />
        </div>
      </header>

      {invitations.data && invitations.data.length > 0 ? (
        <section className="card" aria-labelledby="my-invitations-title">
          <h2 id="my-invitations-title">Invitations</h2>
          <p className="muted">You join a team, and reach its zones with the role offered, when you accept.</p>
          <MyInvitations invitations={invitations.data} />
        </section>
      ) : null}

      <section className="card">
        <CreateTeamForm />
      </section>

      <section className="card" aria-label={all ? 'Every team' : 'Your teams'}>
        {isAdmin ? (
          <form className="toolbar" aria-label="Which teams" onSubmit={(e) => e.preventDefault()}>
            <SelectField label="Show" value={all ? 'all' : 'mine'} onChange={(e) => setFilters({ all: e.target.value === 'all' ? 'true' : null }, { replace: true })}>
              <option value="mine">Teams I am in</option>
              <option value="all">Every team (administrator)</option>
            </SelectField>
          </form>
        ) : null}
        {q.isPending ? (
          <LoadingState label="Loading teams…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load your teams" />
        ) : q.data.total === 0 ? (
          <EmptyState title="No teams yet">Create one above, or ask a team’s owner to invite you.</EmptyState>
        ) : (
          <>
            <TeamsTable teams={q.data.items} />
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Team pages" />
          </>
        )}
      </section>
    </div>
  );
}
