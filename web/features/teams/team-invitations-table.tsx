/**
 * A team's pending invitations: who was invited, with which role, by whom and when. Owners cancel
 * one; admins of the team only see them. An invitation to a name nobody has is listed like any
 * other: the list cannot tell which names are users'.
 */
import type { TeamInvitation } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { roleLabel } from '../../lib/role-words';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';
import { useToast } from '../../ui/toast';
import { useCancelInvitation } from './cancel-invitation';

export function TeamInvitationsTable({ team, invitations, manage }: { team: string; invitations: TeamInvitation[]; manage: boolean }) {
  const cancel = useCancelInvitation(team);
  const toast = useToast();
  const withdraw = (username: string) =>
    cancel.mutate(username, {
      onSuccess: () => toast('success', `Cancelled the invitation of ${username}`),
      onError: (e) => toast('error', `Could not cancel the invitation of ${username}: ${e.message}`),
    });
  return (
    <TableWrap label={`Pending invitations to ${team}`}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Invited</th>
            <th scope="col">Role</th>
            <th scope="col">By</th>
            <th scope="col">Since</th>
            {manage ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {invitations.map((i) => (
            <tr key={i.username}>
              <td>
                <span className="strong">{i.username}</span> <Badge tone="warning">Pending</Badge>
              </td>
              <td>
                <Badge tone="info">{roleLabel(i.role)}</Badge>
              </td>
              <td>{i.invited_by}</td>
              <td>
                <time dateTime={i.created_at} title={fullTime(i.created_at)}>
                  {timeAgo(i.created_at)}
                </time>
              </td>
              {manage ? (
                <td className="actions actions-row">
                  <button
                    type="button"
                    className="btn btn-small btn-ghost-danger"
                    disabled={cancel.isPending && cancel.variables === i.username}
                    onClick={() => withdraw(i.username)}
                    aria-label={`Cancel the invitation of ${i.username}`}
                  >
                    Cancel
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
