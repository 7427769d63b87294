/**
 * Each member's state (the majority of the nodes that checked it lately) and since when, and under
 * it what every node saw last: ok or not, the detail (status, error) and when. A table that scrolls
 * inside its own frame on a phone.
 */
import type { PoolMember } from '../../lib/api-types';

import { Badge } from '../../ui/badge';
import { When } from '../../ui/when';
import { TableWrap } from '../../ui/table-wrap';
import { STATE_LABEL, STATE_TONE } from './pool-words';

export function MemberResults({ members }: { members: PoolMember[] }) {
  return (
    <TableWrap label="Members and each node's results">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">State</th>
            <th scope="col">Node</th>
            <th scope="col">Result</th>
            <th scope="col">Detail</th>
            <th scope="col">Checked</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const rows = m.nodes.length > 0 ? m.nodes : [null];
            return rows.map((n, i) => (
              <tr key={`${m.address}-${n?.node ?? 'none'}`} data-testid="member-row">
                {i === 0 ? (
                  <>
                    <th scope="row" rowSpan={rows.length} className="mono">
                      {m.address}
                      <div className="muted small">
                        priority {m.priority} · weight {m.weight}
                      </div>
                    </th>
                    <td rowSpan={rows.length}>
                      <Badge tone={STATE_TONE[m.state]}>{STATE_LABEL[m.state]}</Badge>
                      <div className="muted small">
                        {m.since ? (
                          <>
                            since <When iso={m.since} />
                          </>
                        ) : null}
                      </div>
                    </td>
                  </>
                ) : null}
                {n ? (
                  <>
                    <td className="mono">{n.node}</td>
                    <td>{n.ok ? <Badge tone="success">OK</Badge> : <Badge tone="danger">Failed</Badge>}</td>
                    <td className="small">{n.detail}</td>
                    <td>
                      <When iso={n.checked_at} />
                    </td>
                  </>
                ) : (
                  <td colSpan={4} className="muted">
                    No node has checked it yet.
                  </td>
                )}
              </tr>
            ));
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}
