/** The user's teams: their role in each, how many members and zones, since when. */
import { Link } from 'react-router-dom';
import type { Team } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { roleLabel } from '../../lib/role-words';
import { TableWrap } from '../../ui/table-wrap';

export function TeamsTable({ teams }: { teams: Team[] }) {
  return (
    <TableWrap label="Teams">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Your role</th>
            <th scope="col" className="num">
              Members
            </th>
            <th scope="col" className="num">
              Zones
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {teams.map((t) => (
            <tr key={t.name}>
              <td>
                <Link to={routes.team(t.name)} className="strong">
                  {t.name}
                </Link>
              </td>
              <td>{t.role ? <Badge tone={t.role === 'owner' ? 'success' : 'info'}>{roleLabel(t.role)}</Badge> : <span className="muted">Not a member</span>}</td>
              <td className="num">{t.members}</td>
              <td className="num">{t.zones}</td>
              <td>
                <time dateTime={t.created_at} title={fullTime(t.created_at)}>
                  {timeAgo(t.created_at)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
