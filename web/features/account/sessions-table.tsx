/**
 * The user's dashboard sessions: the browser and address each signed in from, when it began, was
 * last used and ends. This one is marked
 * and ends with "Sign out"; any other can be ended here (a browser left signed in elsewhere).
 */
import type { AccountSession } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { useToast } from '../../ui/toast';
import { useEndSession } from './end-session';
import { TableWrap } from '../../ui/table-wrap';
import { describeUserAgent } from '../../lib/device-words';

function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={fullTime(iso)}>
      {timeAgo(iso)}
    </time>
  );
}

export function SessionsTable({ sessions }: { sessions: AccountSession[] }) {
  const end = useEndSession();
  const toast = useToast();
  const onEnd = (s: AccountSession) =>
    end.mutate(s.id, {
      onSuccess: () => toast('success', `Ended the session that began ${timeAgo(s.created_at)}`),
      onError: (e) => toast('error', `Could not end the session: ${e.message}`),
    });
  return (
    <TableWrap label="Your sessions">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Signed in</th>
            <th scope="col">Last active</th>
            <th scope="col">Ends</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td>
                <span className="strong" title={s.user_agent ?? undefined}>
                  {describeUserAgent(s.user_agent)}
                </span>
                {s.address ? <div className="muted small mono">{s.address}</div> : null}
              </td>
              <td>
                <Time iso={s.created_at} />
                {s.current ? (
                  <>
                    {' '}
                    <Badge tone="info">This session</Badge>
                  </>
                ) : null}
              </td>
              <td>
                <Time iso={s.last_seen_at} />
              </td>
              <td>
                <Time iso={s.expires_at} />
              </td>
              <td className="actions actions-row">
                {s.current ? (
                  <span className="muted small">Sign out to end</span>
                ) : (
                  <button
                    type="button"
                    className="btn btn-small btn-ghost-danger"
                    disabled={end.isPending && end.variables === s.id}
                    onClick={() => onEnd(s)}
                    aria-label={`End the session signed in ${fullTime(s.created_at)}`}
                  >
                    End session
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
