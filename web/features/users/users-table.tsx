/**
 * The service's users, for an administrator: disable or enable one, grant or revoke admin,
 * reset a password (a one-time one, shown once), see and change their IP ranges. Their own row offers neither disabling nor
 * giving up admin, so an administrator cannot lock themselves out by a slip.
 */
import { Link } from 'react-router-dom';
import type { User } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';

interface Props {
  users: User[];
  me: string | undefined;
  busy: string | null;
  onToggleDisabled: (u: User) => void;
  onToggleAdmin: (u: User) => void;
  onResetPassword: (u: User) => void;
  /** Removes the user's second factors, TOTP and passkeys (a lost phone). */
  onResetFactors: (u: User) => void;
  /** Shows and changes the user's registered IP ranges (their own administrator's too). */
  onIpRanges: (u: User) => void;
}

export function UsersTable({ users, me, busy, onToggleDisabled, onToggleAdmin, onResetPassword, onResetFactors, onIpRanges }: Props) {
  return (
    <TableWrap label="Users">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => {
            const self = u.username === me;
            return (
              <tr key={u.username}>
                <td>
                  <span className="strong">{u.username}</span>
                  {self ? <span className="muted"> (you)</span> : null}
                </td>
                <td>
                  <span className="badges">
                    {u.disabled ? <Badge tone="danger">Disabled</Badge> : <Badge tone="success">Active</Badge>}
                    {u.is_admin ? <Badge tone="info">Admin</Badge> : null}
                  </span>
                </td>
                <td>
                  <time dateTime={u.created_at} title={fullTime(u.created_at)}>
                    {timeAgo(u.created_at)}
                  </time>
                </td>
                <td className="actions actions-row">
                  <button type="button" className="btn btn-small" onClick={() => onIpRanges(u)} aria-label={`IP ranges of ${u.username}`}>
                    IP ranges
                  </button>
                  {self ? (
                    <Link to={routes.account} className="small">
                      Your account
                    </Link>
                  ) : (
                    <>
                      <button type="button" className="btn btn-small" disabled={busy === u.username} onClick={() => onResetPassword(u)} aria-label={`Reset password of ${u.username}`}>
                        Reset password
                      </button>
                      <button type="button" className="btn btn-small" disabled={busy === u.username} onClick={() => onResetFactors(u)} aria-label={`Reset two-factor sign-in of ${u.username}`}>
                        Reset two-factor
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        disabled={busy === u.username}
                        onClick={() => onToggleAdmin(u)}
                        aria-label={u.is_admin ? `Revoke admin from ${u.username}` : `Grant admin to ${u.username}`}
                      >
                        {u.is_admin ? 'Revoke admin' : 'Grant admin'}
                      </button>
                      <button
                        type="button"
                        className={u.disabled ? 'btn btn-small' : 'btn btn-small btn-ghost-danger'}
                        disabled={busy === u.username}
                        onClick={() => onToggleDisabled(u)}
                        aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.username}`}
                      >
                        {u.disabled ? 'Enable' : 'Disable'}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
