/**
 * The zone's keys: tag, role, algorithm, where each stands in its life (RFC 7583 states) and since
 * when, and for a key the parent points at (KSK or CSK) its DS record with a copy button.
 */
import type { DnssecKey } from '../../lib/api-types';
import { fullTime } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { CopyButton } from '../../ui/copy-button';
import { ALGORITHMS, ROLE_WORDS, STATE_WORDS } from './policy-words';

const algorithmLabel = (k: DnssecKey) => ALGORITHMS.find((a) => a.value === k.algorithm_name)?.label ?? `${k.algorithm_name} (algorithm ${k.algorithm})`;

function KeyItem({ k }: { k: DnssecKey }) {
  const state = STATE_WORDS[k.state];
  const label = `${ROLE_WORDS[k.role]} ${k.key_tag}`;
  return (
    <li className="dnssec-key" aria-label={`Key ${label}`}>
      <div className="dnssec-key-head">
        <span className="strong">{ROLE_WORDS[k.role]}</span>
        <span className="mono">tag {k.key_tag}</span>
        <Badge tone={state.tone} title={state.help}>
          {k.state}
        </Badge>
      </div>
      <p className="small muted dnssec-key-facts">
        {algorithmLabel(k)} · {state.help} · since {fullTime(k.state_since ?? k.created_at)}
      </p>
      {k.ds ? (
        <div className="dnssec-key-ds">
          <span className="mono small">{k.ds}</span>
          <CopyButton text={k.ds} label="Copy DS" />
        </div>
      ) : null}
    </li>
  );
}

export function KeyList({ keys }: { keys: DnssecKey[] }) {
  const shown = keys.filter((k) => k.state !== 'removed');
  if (shown.length === 0) return <p className="muted small">No keys yet.</p>;
  return (
    <ul className="dnssec-keys" aria-label="Keys">
      {shown.map((k) => (
        <KeyItem key={k.id} k={k} />
      ))}
    </ul>
  );
}
