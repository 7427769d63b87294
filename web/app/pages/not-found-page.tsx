import { Link } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { EmptyState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';

export function Component() {
  usePageTitle('Not found');
  return (
    <div className="page">
      <h1>Page not found</h1>
      <EmptyState title="Nothing lives at this address">
        <Link to={routes.domains}>Go to your domains</Link>
      </EmptyState>
    </div>
  );
}
