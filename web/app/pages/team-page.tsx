/**
 * One team: its members and their roles, what each role may do, its pending invitations (for its
 * owners and admins), and (for its owners) inviting, cancelling invitations, changing roles,
 * removing members and deleting the team. The API enforces each of these; the page offers them
 * only to those who may.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useAccount } from '../../features/account/get-account';
import { useSession } from '../../lib/get-session';
import { InviteMemberForm } from '../../features/teams/invite-member-form';
import { DeleteTeamDialog } from '../../features/teams/delete-team-dialog';
import { useMembers } from '../../features/teams/list-members';
import { useTeamInvitations } from '../../features/teams/list-team-invitations';
import { TeamInvitationsTable } from '../../features/teams/team-invitations-table';
import { MembersTable } from '../../features/teams/members-table';
import { RemoveMemberDialog } from '../../features/teams/remove-member-dialog';
import { RoleList } from '../../features/teams/role-list';
import { canManageMembers, roleLabel } from '../../lib/role-words';
import { ApiError } from '../../lib/api-client';
import type { Member } from '../../lib/api-types';
import { routes } from '../../lib/paths';
import { usePageTitle } from '../../lib/page-title';
import { Badge } from '../../ui/badge';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name, 'Team');
  const members = useMembers(name);
  const me = useSession().data?.username;
  const account = useAccount();
  const navigate = useNavigate();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [deleting, setDeleting] = useState(false);
  const myRole = members.data?.find((m) => m.username === me)?.role;
  const manage = canManageMembers(myRole, account.data?.is_admin ?? false);
  // Owners and admins of the team (and administrators) see who is invited; editors and viewers do not.
  const seesInvitations = members.isSuccess && (manage || myRole === 'admin');
  const invitations = useTeamInvitations(name, seesInvitations);

  if (members.isError && members.error instanceof ApiError && members.error.status === 404) {
    return (
      <div className="page">
        <EmptyState title={`No team named ${name}`}>
          It may have been deleted, or you are not a member. <Link to={routes.teams}>Back to your teams</Link>
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={routes.teams}>Teams</Link> <span aria-hidden="true">/</span> <span aria-current="page">{name}</span>
      </nav>
      <header className="page-header">
        <div>
          <h1>Team {name}</h1>
          <p className="muted">
            {myRole ? (
              <>
                Your role: <Badge tone={myRole === 'owner' ? 'success' : 'info'}>{roleLabel(myRole)}</Badge>
              </>
            ) : members.data && account.data?.is_admin ? (
              'You are not a member; as an administrator you manage it.'
            ) : null}
          </p>
          <RoleList />
        </div>
        {manage ? (
          <button type="button" className="btn btn-ghost-danger" onClick={() => setDeleting(true)}>
            Delete team
          </button>
        ) : null}
      </header>

      {manage ? (
        <section className="card">
          <InviteMemberForm team={name} />
        </section>
      ) : null}

      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        {members.isPending ? (
          <LoadingState label="Loading members…" />
        ) : members.isError ? (
          <ErrorState error={members.error} retry={() => void members.refetch()} title="Could not load the members" />
        ) : (
          <MembersTable team={name} members={members.data} me={me} manage={manage} onRemove={setRemoving} />
        )}
        <p className="muted small">The team’s zones are listed with yours under Domains; to create one for it, choose the team as its owner there.</p>
      </section>

      {seesInvitations && invitations.data && invitations.data.length > 0 ? (
        <section className="card" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Pending invitations</h2>
          <TeamInvitationsTable team={name} invitations={invitations.data} manage={manage} />
          <p className="muted small">An invited user becomes a member, with the role shown, when they accept on their Teams page.</p>
        </section>
      ) : null}
      <RemoveMemberDialog team={name} member={removing} me={me} onClose={() => setRemoving(null)} onLeft={() => navigate(routes.teams)} />
      <DeleteTeamDialog team={name} open={deleting} onClose={() => setDeleting(false)} onDeleted={() => navigate(routes.teams)} />
    </div>
  );
}
