/**
 * A zone's history: every change set, newest first, with who made it, from where, when, the
 * comment and the diff; filters by source and user and the page live in the URL, so a view
 * can be linked. Any change can be reverted after a preview.
 */
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { TeamEventsCard } from '../../features/audit/team-events-card';
import { useDomain } from '../../features/domains/get-domain';
import { zoneAccess } from '../../features/domains/zone-access';
import { ZoneNotFound, ZonePageHeader } from '../../features/domains/zone-page-header';
import { HistoryCard } from '../../features/history/history-card';
import { RevertDialog } from '../../features/history/revert-dialog';
import { ApiError } from '../../lib/api-client';
import type { ChangeSet } from '../../lib/api-types';
import { usePageTitle } from '../../lib/page-title';

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name, 'History');
  const domain = useDomain(name);
  const [reverting, setReverting] = useState<ChangeSet | null>(null);

  if (domain.isError && domain.error instanceof ApiError && domain.error.status === 404) return <ZoneNotFound name={name} />;
  const access = domain.data ? zoneAccess(domain.data) : undefined;
  // Reverting writes the zone: not for a member who may only read it.
  const canRevert = access?.records ?? false;

  return (
    <div className="page">
      <ZonePageHeader name={name} view="History" access={access}>
        <p className="muted">
          Every change to this zone, newest first: who made it, from where, and what it changed.{access && !access.records ? '' : ' Any of them can be reverted after a preview.'}
          {access?.readOnlyReason ? ` Nothing can be reverted here: ${access.readOnlyReason.charAt(0).toLowerCase()}${access.readOnlyReason.slice(1)}` : ''}
        </p>
      </ZonePageHeader>
      <HistoryCard zone={name} onRevert={canRevert ? setReverting : undefined} />
      <TeamEventsCard zone={name} team={domain.data?.team} />
      <RevertDialog domain={name} change={reverting} onClose={() => setReverting(null)} />
    </div>
  );
}
