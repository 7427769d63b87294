/**
 * Above every view of another account's zone opened by an administrator: whose zone it is, and
 * that it is read-only to them. The server refuses their writes to it; this says so before they try.
 */
import { Link } from 'react-router-dom';
import { routes } from '../../lib/paths';

export function AdministratorBanner({ heldBy }: { heldBy: string }) {
  return (
    <div className="alert alert-info" role="note" data-testid="administrator-view">
      <strong className="alert-title">You are viewing {heldBy}&rsquo;s zone as an administrator</strong>
      <div>
        Its records, history, settings and DNSSEC are shown read-only: administrators read every account&rsquo;s zones and change only their own. <Link to={routes.allZones}>All zones</Link>
      </div>
    </div>
  );
}
