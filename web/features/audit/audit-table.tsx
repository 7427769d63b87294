/** Account audit events, newest first: when, what, who (and with which credential), whom or which team it concerned, and from where. */
import type { AuditEvent } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { auditActorWords, detailParts, kindLabel } from './audit-words';
import { TableWrap } from '../../ui/table-wrap';
import './audit.css';

const tone = (kind: string) =>
  kind === 'sign-in-failed' ? 'danger' : kind.endsWith('-deleted') || kind.endsWith('-revoked') || kind.endsWith('-removed') || kind === 'user-disabled' ? 'warning' : 'neutral';

export function AuditTable({ events }: { events: AuditEvent[] }) {
  return (
    <TableWrap label="Audit events">
      <table className="table audit-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">By</th>
            <th scope="col">Concerning</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => {
            const details = detailParts(e.detail);
            return (
              <tr key={e.id} data-kind={e.kind}>
                <td>
                  <time dateTime={e.created_at} title={fullTime(e.created_at)}>
                    {timeAgo(e.created_at)}
                  </time>
                </td>
                <td>
                  <Badge tone={tone(e.kind)}>{kindLabel(e.kind)}</Badge>
                  {details.length ? <div className="muted small">{details.join(' · ')}</div> : null}
                </td>
                <td>{auditActorWords(e.actor)}</td>
                <td>
                  {e.subject ? <span className="strong">{e.subject}</span> : null}
                  {e.subject && e.team ? ' in ' : null}
                  {e.team ? <span>team {e.team}</span> : null}
                  {!e.subject && !e.team ? <span className="muted">—</span> : null}
                </td>
                <td>
                  <span className="mono small">{e.address || '—'}</span>
                  {e.user_agent ? (
                    <div className="muted small user-agent" title={e.user_agent}>
                      {e.user_agent}
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
