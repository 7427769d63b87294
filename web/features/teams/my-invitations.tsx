/**
 * The user's pending invitations into teams, each with Accept and Decline. Accepting makes the
 * team's zones reachable at once with the role offered, so the domain list is asked for again.
 */
import type { Invitation } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { ROLE_WORDS, roleLabel } from '../../lib/role-words';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';
import { useToast } from '../../ui/toast';
import { useAcceptInvitation, useDeclineInvitation } from './answer-invitation';

export function MyInvitations({ invitations }: { invitations: Invitation[] }) {
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const toast = useToast();
  const busy = (team: string) => (accept.isPending && accept.variables === team) || (decline.isPending && decline.variables === team);
  return (
    <TableWrap label="Your invitations">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Team</th>
            <th scope="col">Role offered</th>
            <th scope="col">Invited by</th>
            <th scope="col">Since</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((i) => (
            <tr key={i.team}>
              <td className="strong">{i.team}</td>
              <td>
                <Badge tone="info" title={ROLE_WORDS[i.role]}>
                  {roleLabel(i.role)}
                </Badge>
              </td>
              <td>{i.invited_by}</td>
              <td>
                <time dateTime={i.created_at} title={fullTime(i.created_at)}>
                  {timeAgo(i.created_at)}
                </time>
              </td>
              <td className="actions actions-row">
                <button
                  type="button"
                  className="btn btn-small btn-primary"
                  disabled={busy(i.team)}
                  aria-label={`Accept the invitation to ${i.team}`}
                  onClick={() =>
                    accept.mutate(i.team, {
                      onSuccess: (t) => toast('success', `You joined ${t.name} as ${t.role}: its zones are under Domains`),
                      onError: (e) => toast('error', `Could not accept the invitation to ${i.team}: ${e.message}`),
                    })
                  }
                >
                  Accept
                </button>
                <button
                  type="button"
                  className="btn btn-small btn-ghost-danger"
                  disabled={busy(i.team)}
                  aria-label={`Decline the invitation to ${i.team}`}
                  onClick={() =>
                    decline.mutate(i.team, {
                      onSuccess: () => toast('success', `Declined the invitation to ${i.team}`),
                      onError: (e) => toast('error', `Could not decline the invitation to ${i.team}: ${e.message}`),
                    })
                  }
                >
                  Decline
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
