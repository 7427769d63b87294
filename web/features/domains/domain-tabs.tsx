/** The views of a zone (its editor, its history, importing a file) and its export. */
import { NavLink } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { ExportZoneLink } from '../zone-files/export-zone-link';

export function DomainTabs({ name }: { name: string }) {
  return (
    <div className="tabs-row">
      <nav className="tabs" aria-label={`Views of ${name}`}>
        <NavLink to={routes.domain(name)} end>
          Records and settings
        </NavLink>
        <NavLink to={routes.history(name)}>History</NavLink>
        <NavLink to={routes.importZone(name)}>Import</NavLink>
      </nav>
      <div className="tabs-actions">
        <ExportZoneLink name={name} />
      </div>
    </div>
  );
}
