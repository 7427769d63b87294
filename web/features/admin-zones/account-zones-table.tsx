/** Every account's zones as an administrator sees them: who holds each, its size, serial, signing and delegation. */
import { Link } from 'react-router-dom';
import { fullTime, timeAgo } from '../../lib/format';
import { unicodeName } from '../../lib/idn';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';
import type { AccountZone } from './list-account-zones';

const DELEGATION = {
  delegated: <Badge tone="success">Delegated</Badge>,
  not_delegated: <Badge tone="warning">Not delegated</Badge>,
  unknown: <Badge title="No delegation check has answered for this zone yet">Not checked</Badge>,
};

export function AccountZonesTable({ zones }: { zones: AccountZone[] }) {
  return (
    <TableWrap label="Every account's zones">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Zone</th>
            <th scope="col">Held by</th>
            <th scope="col" className="num">
              Records
            </th>
            <th scope="col" className="num">
              Serial
            </th>
            <th scope="col">DNSSEC</th>
            <th scope="col">Delegation</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {zones.map((z) => (
            <tr key={z.name}>
              <td>
                <Link to={routes.domain(z.name)} className="strong">
                  {unicodeName(z.name) ?? z.name}
                </Link>
                {unicodeName(z.name) ? <span className="muted small mono"> {z.name}</span> : null}
                {z.kind === 'secondary' ? (
                  <>
                    {' '}
                    <Badge>Secondary</Badge>
                  </>
                ) : null}
              </td>
              <td>
                {z.team ? (
                  <>
                    Team {z.team} <span className="muted small">(made by {z.held_by})</span>
                  </>
                ) : (
                  z.held_by
                )}
              </td>
              <td className="num mono">{z.record_count}</td>
              <td className="num mono">{z.serial_number}</td>
              <td>{z.dnssec_enabled ? <Badge tone="success">Signed</Badge> : <Badge>Off</Badge>}</td>
              <td>{DELEGATION[z.delegation]}</td>
              <td>
                <time dateTime={z.updated_at} title={fullTime(z.updated_at)}>
                  {timeAgo(z.updated_at)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
