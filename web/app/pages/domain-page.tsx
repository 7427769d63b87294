/**
 * The domain editor: zone facts, SOA timers, DNSSEC, the zone's own transfers and the records. Its writes carry the
 * zone's serial as If-Match; when one is refused because the zone changed elsewhere, the
 * conflict banner says who changed it and offers to reload. On a team's zone it offers what
 * the member's role allows (zone-access.ts): an editor sees no SOA or DNSSEC controls, a
 * viewer no control at all; an administrator reading another account's zone sees its settings too,
 * every control disabled. A secondary zone shows its Transfer panel first and its records
 * read only, with the reason.
 */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { DeleteDomainDialog } from '../../features/domains/delete-domain-dialog';
import { DelegationCard } from '../../features/delegation/delegation-card';
import { DnssecSettings } from '../../features/dnssec/dnssec-settings';
import { DnssecSwitch } from '../../features/domains/dnssec-switch';
import { useDomain } from '../../features/domains/get-domain';
import { SoaForm } from '../../features/domains/soa-form';
import { TransferPanel } from '../../features/domains/transfer-panel';
import { TransfersForm } from '../../features/domains/transfers-form';
import { zoneAccess } from '../../features/domains/zone-access';
import { ZoneFacts } from '../../features/domains/zone-facts';
import { ZoneNotFound, ZonePageHeader } from '../../features/domains/zone-page-header';
import { ZoneConflictProvider } from '../../ui/zone-conflict';
import { ConflictBanner } from '../../features/history/conflict-banner';
import { RecordsPanel } from '../../features/records/records-panel';
import { ZoneTemplateFact } from '../../features/templates/zone-template';
import { ApiError } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { routes } from '../../lib/paths';
import { ErrorState, LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';
import { unicodeName } from '../../lib/idn';
import '../../features/domains/domains.css';

/**
 * The SOA timers and the zone's own transfers side by side under the records; DNSSEC below them
 * across the page, as its policy, keys and rollover timeline need the room.
 */
function ZoneSettings({ domain }: { domain: Domain }) {
  return (
    <div className="editor-grid">
      <section className="card" aria-labelledby="soa-title">
        <h2 id="soa-title">SOA settings</h2>
        <SoaForm domain={domain} />
      </section>
      <section className="card" aria-labelledby="transfers-title">
        <h2 id="transfers-title">Transfers</h2>
        <TransfersForm domain={domain} />
      </section>
      <section className="card editor-grid-wide" aria-labelledby="dnssec-title">
        <h2 id="dnssec-title">DNSSEC</h2>
        <DnssecSwitch domain={domain} />
        <DnssecSettings name={domain.name} signed={domain.dnssec_enabled} version={`${domain.serial_number}:${domain.dnssec_enabled}`} />
      </section>
    </div>
  );
}

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name);
  const q = useDomain(name);
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  if (q.isPending) return <LoadingState label={`Loading ${name}…`} />;
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.status === 404) return <ZoneNotFound name={name} />;
    return <ErrorState error={q.error} retry={() => void q.refetch()} title={`Could not load ${name}`} />;
  }
  const d = q.data;
  const access = zoneAccess(d);
  const unicode = unicodeName(d.name);
  return (
    <ZoneConflictProvider zone={d.name} key={d.name}>
      <div className="page">
        <ZonePageHeader
          name={d.name}
          title={unicode ?? d.name}
          access={access}
          actions={
            access.remove ? (
              <button type="button" className="btn btn-ghost-danger" onClick={() => setDeleting(true)}>
                Delete domain
              </button>
            ) : null
          }
        >
          {unicode ? <p className="muted small mono">{d.name}</p> : null}
          <ZoneFacts domain={d} access={access} template={<ZoneTemplateFact zone={d.name} serial={d.serial_number} />} />
        </ZonePageHeader>
        <ConflictBanner zone={d.name} />

        {/* The records are what people come for: first, above the zone's settings. */}
        {d.kind === 'secondary' ? <TransferPanel domain={d} canRetrieve={d.role !== 'viewer'} /> : null}
        <RecordsPanel domain={d} readOnly={!access.records} readOnlyReason={access.readOnlyReason} ownRanges={!access.heldBy} />

        {access.settings ? (
          <ZoneSettings domain={d} />
        ) : access.heldBy ? (
          // An administrator sees another account's settings as they are, every control disabled.
          <fieldset disabled className="read-only-settings" aria-label="Zone settings, read only">
            <ZoneSettings domain={d} />
          </fieldset>
        ) : null}
        <DelegationCard domain={d} />
        <DeleteDomainDialog name={deleting ? d.name : null} onClose={() => setDeleting(false)} onDeleted={() => navigate(routes.domains)} />
      </div>
    </ZoneConflictProvider>
  );
}
