/** The zones the user can reach: their own and their teams' (with the team and role), and Delete where they may delete. */
import { Link } from 'react-router-dom';
import type { Domain } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { unicodeName } from '../../lib/idn';
import { transferStates } from './transfer-state';
import { zoneAccess } from './zone-access';
import { DelegationBadge } from './delegation-badge';
import { ZoneSparkline } from '../../ui/zone-sparkline';

export function DomainsTable({ domains, onDelete }: { domains: Domain[]; onDelete: (name: string) => void }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="num">
              Serial
            </th>
            <th scope="col">DNSSEC</th>
            <th scope="col">Delegation</th>
            <th scope="col">Queries (24 h)</th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {domains.map((d) => (
            <tr key={d.name}>
              <td>
                <Link to={routes.domain(d.name)} className="strong">
                  {unicodeName(d.name) ?? d.name}
                </Link>
                {unicodeName(d.name) ? <span className="muted small mono"> {d.name}</span> : null}
                {d.kind === 'secondary' ? <SecondaryTag domain={d} /> : null}
                {d.team ? (
                  <>
                    {' '}
                    <Badge tone="info">{zoneAccess(d).badge}</Badge>
                  </>
                ) : null}
              </td>
              <td className="num mono">{d.serial_number}</td>
              <td>{d.dnssec_enabled ? <Badge tone="success">Signed</Badge> : <Badge>Off</Badge>}</td>
              <td>
                <DelegationBadge domain={d} />
              </td>
              <td>
                <Link to={routes.traffic(d.name)}>
                  <ZoneSparkline zone={d.name} />
                </Link>
              </td>
              <td>
                <time dateTime={d.updated_at} title={fullTime(d.updated_at)}>
                  {timeAgo(d.updated_at)}
                </time>
              </td>
              <td className="actions">
                {zoneAccess(d).remove ? (
                  <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => onDelete(d.name)} aria-label={`Delete ${d.name}`}>
                    Delete
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Secondary", and how its transfers go when not well (refreshing, failing, expired). */
function SecondaryTag({ domain }: { domain: Domain }) {
  const state = domain.transfer && domain.transfer.state !== 'ok' ? transferStates[domain.transfer.state] : null;
  return (
    <>
      {' '}
      <Badge title={`Copied by zone transfer from ${domain.primaries.join(', ')}`}>Secondary</Badge>
      {state ? (
        <>
          {' '}
          <Badge tone={state.tone} title={state.meaning}>
            {state.label}
          </Badge>
        </>
      ) : null}
    </>
  );
}
