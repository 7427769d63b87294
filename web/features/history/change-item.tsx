/** One change set in a zone's history: who, when, from where, the comment, and what it changed. */
import type { ChangeSet } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { actorWords, sourceLabel } from '../../lib/actor-words';
import { ChangeDiff } from '../../ui/change-diff';
import { revertRefusal } from './revert-change';
import './history.css';

/** Without `onRevert` (a member who may only read the zone) the change offers no revert. */
export function ChangeItem({ domain, change, onRevert }: { domain: string; change: ChangeSet; onRevert?: (c: ChangeSet) => void }) {
  const refusal = revertRefusal(change);
  const label = `of change #${change.id}`;
  return (
    <li className="change">
      <div className="change-head">
        <div className="change-who">
          <span className="strong">{actorWords(change.actor)}</span>
          <Badge tone={change.source === 'revert' ? 'warning' : 'neutral'}>{sourceLabel(change.source)}</Badge>
          {change.batch ? (
            <Badge tone="info" title={`One change set of batch ${change.batch}, which changed several zones at once (POST /api/v1/batches/${change.batch}/revert undoes them all)`}>
              batch {change.batch.slice(0, 8)}
            </Badge>
          ) : null}
          <time dateTime={change.created_at} title={fullTime(change.created_at)} className="muted small">
            {timeAgo(change.created_at)}
          </time>
        </div>
        <div className="change-side">
          <span className="muted small mono" title="Change set id and the zone serial before → after it">
            #{change.id} · {change.serial_before || '—'} → {change.serial_after}
          </span>
          {!onRevert ? null : refusal ? (
            <span className="muted small">{refusal}</span>
          ) : (
            <button type="button" className="btn btn-small" onClick={() => onRevert(change)} aria-label={`Revert change #${change.id}`}>
              Revert…
            </button>
          )}
        </div>
      </div>
      {change.comment ? <p className="change-comment">{change.comment}</p> : null}
      <ChangeDiff domain={domain} change={change} label={label} />
    </li>
  );
}
