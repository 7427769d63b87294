/**
 * The domain editor: zone facts, SOA timers, DNSSEC and the records. Its writes carry the
 * zone's serial as If-Match; when one is refused because the zone changed elsewhere, the
 * conflict banner says who changed it and offers to reload. On a team's zone it offers what
 * the member's role allows (zone-access.ts): an editor sees no SOA or DNSSEC controls, a
 * viewer no control at all.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { DeleteDomainDialog } from '../../features/domains/delete-domain-dialog';
import { DelegationCard } from '../../features/delegation/delegation-card';
import { DnssecSwitch } from '../../features/domains/dnssec-switch';
import { DomainTabs } from '../../features/domains/domain-tabs';
import { useDomain } from '../../features/domains/get-domain';
import { SoaForm } from '../../features/domains/soa-form';
import { zoneAccess } from '../../features/domains/zone-access';
import { ZoneConflictProvider } from '../../ui/zone-conflict';
import { ConflictBanner } from '../../features/history/conflict-banner';
import { RecordsPanel } from '../../features/records/records-panel';
import { ZoneTemplateFact } from '../../features/templates/zone-template';
import { ApiError } from '../../lib/api-client';
import { fullTime, timeAgo } from '../../lib/format';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';
import { unicodeName } from '../../lib/idn';

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name);
  const q = useDomain(name);
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  if (q.isPending) return <LoadingState label={`Loading ${name}…`} />;
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.status === 404) {
      return (
        <div className="page">
          <EmptyState title={`No domain named ${name}`}>
            It may have been deleted, or it belongs to another account. <Link to={routes.domains}>Back to your domains</Link>
          </EmptyState>
        </div>
      );
    }
    return <ErrorState error={q.error} retry={() => void q.refetch()} title={`Could not load ${name}`} />;
  }
  const d = q.data;
  const access = zoneAccess(d);
  return (
    <ZoneConflictProvider zone={d.name} key={d.name}>
      <div className="page">
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <Link to={routes.domains}>Domains</Link> <span aria-hidden="true">/</span> <span aria-current="page">{unicodeName(d.name) ?? d.name}</span>
        </nav>
        <header className="page-header">
          <div>
            <h1 className="mono-title">{unicodeName(d.name) ?? d.name}</h1>
            {unicodeName(d.name) ? <p className="muted small mono">{d.name}</p> : null}
            <dl className="facts">
              {access.badge ? (
                <div>
                  <dt>Owner</dt>
                  <dd>
                    <Badge tone="info" title={access.records ? undefined : 'You can read this zone, not change it'}>
                      {access.badge}
                    </Badge>
                  </dd>
                </div>
              ) : null}
              <ZoneTemplateFact zone={d.name} serial={d.serial_number} />
              <div>
                <dt>Serial</dt>
                <dd className="mono" data-testid="serial">
                  {d.serial_number}
                </dd>
              </div>
              <div>
                <dt>Delegation</dt>
                <dd>{d.delegated ? <Badge tone="success">Delegated</Badge> : <Badge tone="warning">Not delegated</Badge>}</dd>
              </div>
              <div>
                <dt>Updated</dt>
                <dd>
                  <time dateTime={d.updated_at} title={fullTime(d.updated_at)}>
                    {timeAgo(d.updated_at)}
                  </time>
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>
                  <time dateTime={d.created_at}>{fullTime(d.created_at)}</time>
                </dd>
              </div>
            </dl>
          </div>
          {access.remove ? (
            <button type="button" className="btn btn-ghost-danger" onClick={() => setDeleting(true)}>
              Delete domain
            </button>
          ) : null}
        </header>
        <DomainTabs name={d.name} access={access} />
        <ConflictBanner zone={d.name} />

        {/* The records are what people come for: first, above the zone's settings. */}
        <RecordsPanel domain={d} readOnly={!access.records} />

        {access.settings ? (
          <div className="editor-grid">
            <section className="card" aria-labelledby="soa-title">
              <h2 id="soa-title">SOA settings</h2>
              <SoaForm domain={d} />
            </section>
            <section className="card" aria-labelledby="dnssec-title">
              <h2 id="dnssec-title">DNSSEC</h2>
              <DnssecSwitch domain={d} />
            </section>
          </div>
        ) : null}
        <DelegationCard domain={d} />
        <DeleteDomainDialog name={deleting ? d.name : null} onClose={() => setDeleting(false)} onDeleted={() => navigate(routes.domains)} />
      </div>
    </ZoneConflictProvider>
  );
}
