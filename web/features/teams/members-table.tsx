/**
 * A team's members. Those who manage the team (owners) change a role in place and remove a
 * member; everyone else sees the roles, and can leave. A refusal (the last owner stepping down) is a toast
 * with the server's message, and the role shown goes back to what it is.
 */
import type { Member, TeamRole } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { useToast } from '../../ui/toast';
import { useChangeMemberRole } from './change-member-role';
import { ROLES, roleLabel } from '../../lib/role-words';
import { TableWrap } from '../../ui/table-wrap';
import './teams.css';

interface Props {
  team: string;
  members: Member[];
  me: string | undefined;
  manage: boolean;
  onRemove: (m: Member) => void;
}

export function MembersTable({ team, members, me, manage, onRemove }: Props) {
  const change = useChangeMemberRole(team);
  const actions = manage || members.some((m) => m.username === me);
  const toast = useToast();
  const setRole = (m: Member, role: TeamRole) =>
    change.mutate(
      { username: m.username, role },
      {
        onSuccess: (after) => toast('success', `${after.username} is now ${after.role} of ${team}`),
        onError: (e) => toast('error', `Could not change the role of ${m.username}: ${e.message}`),
      },
    );
  return (
    <TableWrap label={`Members of ${team}`}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
            <th scope="col">Since</th>
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const pending = change.isPending && change.variables?.username === m.username;
            return (
              <tr key={m.username}>
                <td>
                  <span className="strong">{m.username}</span>
                  {m.username === me ? <span className="muted"> (you)</span> : null}
                </td>
                <td>
                  {manage ? (
                    <select
                      className="inline-select"
                      aria-label={`Role of ${m.username}`}
                      value={pending ? change.variables!.role : m.role}
                      disabled={pending}
                      onChange={(e) => setRole(m, e.target.value as TeamRole)}
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {roleLabel(r)}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <Badge tone={m.role === 'owner' ? 'success' : 'info'}>{roleLabel(m.role)}</Badge>
                  )}
                </td>
                <td>
                  <time dateTime={m.created_at} title={fullTime(m.created_at)}>
                    {timeAgo(m.created_at)}
                  </time>
                </td>
                {actions ? (
                  <td className="actions actions-row">
                    {manage || m.username === me ? (
                      <button
                        type="button"
                        className="btn btn-small btn-ghost-danger"
                        onClick={() => onRemove(m)}
                        aria-label={m.username === me ? `Leave ${team}` : `Remove ${m.username} from ${team}`}
                      >
                        {m.username === me ? 'Leave' : 'Remove'}
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
