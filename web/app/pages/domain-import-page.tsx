/**
 * Importing a zone file into a zone: paste or upload, preview the change it
 * would make, and apply exactly that. A tab of the domain editor, beside History.
 */
import { Link, useParams } from 'react-router-dom';
import { useDomain } from '../../features/domains/get-domain';
import { zoneAccess } from '../../features/domains/zone-access';
import { ZoneNotFound, ZonePageHeader } from '../../features/domains/zone-page-header';
import { ZoneConflictProvider } from '../../ui/zone-conflict';
import { ConflictBanner } from '../../features/history/conflict-banner';
import { ZoneImport } from '../../features/zone-files/zone-import';
import { ApiError } from '../../lib/api-client';
import { routes } from '../../lib/paths';
import { EmptyState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name, 'Import');
  const domain = useDomain(name);

  if (domain.isError && domain.error instanceof ApiError && domain.error.status === 404) {
    return <ZoneNotFound name={name} />;
  }
  const access = domain.data ? zoneAccess(domain.data) : undefined;
  return (
    <ZoneConflictProvider zone={name} key={name}>
      <div className="page">
        <ZonePageHeader name={name} view="Import" access={access}>
          <p className="muted">Bring records in from a zone file: check what it would change first, then apply it as one change set.</p>
        </ZonePageHeader>
        <ConflictBanner zone={name} />
        {access && !access.records ? (
          <EmptyState title="You can read this zone, not change it">
            It belongs to team {domain.data?.team}, where your role is {domain.data?.role}. <Link to={routes.domain(name)}>Back to its records</Link>
          </EmptyState>
        ) : (
          <ZoneImport domain={name} />
        )}
      </div>
    </ZoneConflictProvider>
  );
}
