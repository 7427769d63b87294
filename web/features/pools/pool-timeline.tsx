/** A pool's transitions, newest first: which member went down or came up, when, on whose report. */
import type { PoolTransition } from '../../lib/api-types';
import { fullTime, preciseAgo } from '../../lib/format';
import { transitionText } from './pool-words';

export function PoolTimeline({ transitions }: { transitions: PoolTransition[] }) {
  if (transitions.length === 0) return <p className="muted">No member has changed state yet.</p>;
  return (
    <ol className="pool-timeline" aria-label="Transitions, newest first">
      {transitions.map((t) => (
        <li key={`${t.at}-${t.address}-${t.to}`} className={t.to === 'down' ? 'went-down' : t.to === 'up' ? 'came-up' : undefined}>
          <time dateTime={t.at} title={fullTime(t.at)} className="muted small">
            {fullTime(t.at)} ({preciseAgo(t.at)})
          </time>
          <span className="strong">{transitionText(t)}</span>
          <span className="muted small">on the report of {t.node}</span>
        </li>
      ))}
    </ol>
  );
}
