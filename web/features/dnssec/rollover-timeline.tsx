/**
 * The rollover in progress as a timeline: its steps in order (done, now, next), the server's plain
 * description of the step, and what the next one waits for — a time, or the parent zone publishing
 * the new DS, with the DS set the parent served when last asked.
 */
import type { Rollover } from '../../lib/api-types';
import { fullTime, preciseAgo } from '../../lib/format';
import { KIND_WORDS, timeline, type StepState } from './rollover-steps';

const STATE_WORDS: Record<StepState, string> = { done: 'Done', now: 'Now', next: 'Next' };

/** "Next step not before …" or "Waiting for the parent …", for the timeline and the policy form alike. */
export function NextStep({ rollover }: { rollover: Rollover }) {
  if (rollover.waiting_for === 'parent' || !rollover.next_step_at) {
    return <span className="strong">Waiting for the parent zone to publish the new DS.</span>;
  }
  return (
    <span className="strong">
      Next step not before <time dateTime={rollover.next_step_at}>{fullTime(rollover.next_step_at)}</time>.
    </span>
  );
}

function ParentDs({ rollover }: { rollover: Rollover }) {
  if (rollover.waiting_for !== 'parent') return null;
  const seen = rollover.parent_checked_at ? ` (asked ${preciseAgo(rollover.parent_checked_at)})` : '';
  return (
    <div className="rollover-parent">
      <p className="small">The parent’s name servers are asked until they serve the new DS twice, a DS TTL apart. Until then both keys stay valid, so a slow parent breaks nothing.</p>
      {rollover.parent_ds === null ? (
        <p className="small muted">The parent has given no usable answer yet{seen}.</p>
      ) : (
        <>
          <p className="small strong">The parent’s DS set as last seen{seen}:</p>
          {rollover.parent_ds.length === 0 ? (
            <p className="small muted">No DS record.</p>
          ) : (
            <ul className="mono small rollover-ds" aria-label="The parent’s DS set as last seen">
              {rollover.parent_ds.map((ds) => (
                <li key={ds}>{ds}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

export function RolloverTimeline({ rollover }: { rollover: Rollover }) {
  return (
    <section className="rollover" aria-labelledby="rollover-title" data-testid="rollover-timeline">
      <h4 id="rollover-title">
        {KIND_WORDS[rollover.kind]} in progress <span className="muted small">since {fullTime(rollover.started_at)}</span>
      </h4>
      <ol className="rollover-steps">
        {timeline(rollover).map((s) => (
          <li key={s.step} className={`rollover-step rollover-step-${s.state}`} aria-current={s.state === 'now' ? 'step' : undefined}>
            <span className="rollover-mark" aria-hidden="true">
              {s.state === 'done' ? '✓' : s.state === 'now' ? '●' : '○'}
            </span>
            <span>
              <span className="visually-hidden">{STATE_WORDS[s.state]}: </span>
              {s.title}
              {s.state === 'now' ? <span className="muted small"> (since {fullTime(rollover.step_since)})</span> : null}
            </span>
          </li>
        ))}
      </ol>
      <p className="rollover-description">{rollover.description}</p>
      <p>
        <NextStep rollover={rollover} />
      </p>
      <ParentDs rollover={rollover} />
    </section>
  );
}
