/**
 * The pool's members as editable rows: address, priority (failover answers the lowest priority
 * that has a healthy member) and weight (weighted answers in proportion). Each input is named
 * with its row ("Address of member 2"), so a screen reader and the server's errors agree on which.
 */
import { TextField } from '../../ui/field';
import { newMember, type MemberDraft } from './pool-draft';

interface Props {
  members: MemberDraft[];
  type: 'A' | 'AAAA';
  onChange(members: MemberDraft[]): void;
  error(field: string): string | undefined;
}

const numbered = (what: string, i: number) => (
  <>
    {what}
    <span className="visually-hidden"> of member {i + 1}</span>
  </>
);

export function MemberRows({ members, type, onChange, error }: Props) {
  const set = (i: number, part: Partial<MemberDraft>) => onChange(members.map((m, j) => (j === i ? { ...m, ...part } : m)));
  const listError = error('members');
  return (
    <fieldset className="pool-fieldset" aria-describedby={listError ? 'pool-members-error' : undefined}>
      <legend>Members</legend>
      <ol className="pool-members">
        {members.map((m, i) => (
          <li key={m.key} className="pool-member-row">
            <TextField
              label={numbered('Address', i)}
              value={m.address}
              onChange={(e) => set(i, { address: e.target.value })}
              placeholder={type === 'A' ? '192.0.2.10' : '2001:db8::10'}
              autoComplete="off"
              spellCheck={false}
              className="grow mono-input"
              error={error(`members[${i}].address`)}
            />
            <TextField
              label={numbered('Priority', i)}
              value={m.priority}
              inputMode="numeric"
              onChange={(e) => set(i, { priority: e.target.value })}
              className="pool-num"
              error={error(`members[${i}].priority`)}
            />
            <TextField
              label={numbered('Weight', i)}
              value={m.weight}
              inputMode="numeric"
              onChange={(e) => set(i, { weight: e.target.value })}
              className="pool-num"
              error={error(`members[${i}].weight`)}
            />
            <button
              type="button"
              className="btn btn-small btn-ghost-danger pool-member-remove"
              onClick={() => onChange(members.filter((_, j) => j !== i))}
              aria-label={`Remove member ${i + 1}${m.address ? ` (${m.address})` : ''}`}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      {listError ? (
        <p className="field-error" id="pool-members-error">
          {listError.charAt(0).toUpperCase() + listError.slice(1)}
        </p>
      ) : null}
      <button type="button" className="btn btn-small" onClick={() => onChange([...members, newMember('', String(Math.max(1, ...members.map((m) => Number(m.priority) || 1))))])}>
        Add member
      </button>
      <p className="field-hint">Priority: lower is preferred (failover). Weight: the share of answers (weighted).</p>
    </fieldset>
  );
}
