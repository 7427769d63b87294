/** A pool's members as badges, green when up and red when down, with the count of those up. */
import type { PoolMember } from '../../lib/api-types';
import { fullTime } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { STATE_LABEL, STATE_TONE, upCount } from './pool-words';

export function MemberBadges({ members }: { members: PoolMember[] }) {
  return (
    <span className="pool-badges">
      <span className="strong">{upCount(members)}</span>
      <span className="badges">
        {members.map((m) => (
          <Badge key={m.address} tone={STATE_TONE[m.state]} title={m.since ? `${STATE_LABEL[m.state]} since ${fullTime(m.since)}` : STATE_LABEL[m.state]}>
            <span className="mono">{m.address}</span> {m.state}
          </Badge>
        ))}
      </span>
    </span>
  );
}

/** What DNS answers for the pool now, or that it answers nothing. */
export function PoolAnswer({ answer }: { answer: string[] }) {
  if (answer.length === 0) return <span className="muted">No address (no member is up)</span>;
  return <span className="mono pool-answer">{answer.join(', ')}</span>;
}
