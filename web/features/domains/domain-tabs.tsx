/** The two views of a zone: its editor and its history. */
import { NavLink } from 'react-router-dom';
import { routes } from '../../lib/paths';

export function DomainTabs({ name }: { name: string }) {
  return (
    <nav className="tabs" aria-label={`Views of ${name}`}>
      <NavLink to={routes.domain(name)} end>
        Records and settings
      </NavLink>
      <NavLink to={routes.history(name)}>History</NavLink>
    </nav>
  );
}
