/**
 * Each member as a card: its state (the majority of the nodes that checked it lately) and since
 * when, and under it what every node saw last: ok or not, the detail (status, error) and when.
 * Cards stack on a phone; only a node table wider than the screen scrolls, inside its own frame.
 */
import type { PoolMember } from '../../lib/api-types';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';
import { When } from '../../ui/when';
import { STATE_LABEL, STATE_TONE } from './pool-words';

function NodeResults({ member }: { member: PoolMember }) {
  if (member.nodes.length === 0) return <p className="muted small">No node has checked it yet.</p>;
  return (
    <TableWrap label={`Each node's last check of ${member.address}`}>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Result</th>
            <th scope="col">Detail</th>
            <th scope="col">Checked</th>
          </tr>
        </thead>
        <tbody>
          {member.nodes.map((n) => (
            <tr key={n.node}>
              <td className="mono">{n.node}</td>
              <td>{n.ok ? <Badge tone="success">OK</Badge> : <Badge tone="danger">Failed</Badge>}</td>
              <td className="small">{n.detail}</td>
              <td>
                <When iso={n.checked_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export function MemberResults({ members }: { members: PoolMember[] }) {
  return (
    <ul className="pool-list" aria-label="Members">
      {members.map((m) => (
        <li key={m.address} className="pool-item" data-testid="member-row">
          <div className="pool-item-head">
            <h3 className="mono">{m.address}</h3>
            <Badge tone={STATE_TONE[m.state]}>{STATE_LABEL[m.state]}</Badge>
            {m.since ? (
              <span className="muted small">
                since <When iso={m.since} />
              </span>
            ) : null}
            <span className="muted small">
              priority {m.priority} · weight {m.weight}
            </span>
          </div>
          <NodeResults member={m} />
        </li>
      ))}
    </ul>
  );
}
