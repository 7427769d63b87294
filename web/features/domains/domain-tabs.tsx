/**
 * The views of a zone (its editor, its history, its pools, its traffic, importing a file) and its export. A team
 * member who may not change settings sees "Records"; one who may only read has no Import.
 */
import { NavLink } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { ExportZoneLink } from '../../ui/export-zone-link';
import type { ZoneAccess } from './zone-access';
import './domains.css';

export function DomainTabs({ name, access }: { name: string; access?: ZoneAccess }) {
  return (
    <div className="tabs-row">
      <nav className="tabs" aria-label={`Views of ${name}`}>
        <NavLink to={routes.domain(name)} end>
          {access && !access.settings ? 'Records' : 'Records and settings'}
        </NavLink>
        <NavLink to={routes.history(name)}>History</NavLink>
        <NavLink to={routes.pools(name)}>Pools</NavLink>
        <NavLink to={routes.traffic(name)}>Traffic</NavLink>
        {access && !access.records ? null : <NavLink to={routes.importZone(name)}>Import</NavLink>}
      </nav>
      <div className="tabs-actions">
        <ExportZoneLink name={name} />
      </div>
    </div>
  );
}
