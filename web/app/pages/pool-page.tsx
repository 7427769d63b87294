/**
 * One pool: what DNS answers now, its warnings, each member's state and since when with every
 * node's last result, and the timeline of transitions. Asked again every 5 s while open, so a
 * member going down shows without a reload. Edit and Delete for those who may change the records.
 */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useDomain } from '../../features/domains/get-domain';
import { zoneAccess } from '../../features/domains/zone-access';
import { ZoneNotFound, ZonePageHeader } from '../../features/domains/zone-page-header';
import { DeletePoolDialog } from '../../features/pools/delete-pool-dialog';
import { usePool } from '../../features/pools/get-pool';
import { MemberResults } from '../../features/pools/member-results';
import { PoolFacts } from '../../features/pools/pool-facts';
import { PoolForm } from '../../features/pools/pool-form';
import { PoolTimeline } from '../../features/pools/pool-timeline';
import { upCount } from '../../features/pools/pool-words';
import { ApiError } from '../../lib/api-client';
import type { Pool } from '../../lib/api-types';
import { usePageTitle } from '../../lib/page-title';
import { routes } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import '../../features/pools/pools.css';

export function Component() {
  const params = useParams();
  const name = params.name ?? '';
  const poolId = params.pool ?? '';
  const domain = useDomain(name);
  const q = usePool(name, poolId);
  usePageTitle(q.data?.name ?? poolId, name, 'Pools');
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<Pool | null>(null);

  if (domain.isError && domain.error instanceof ApiError && domain.error.status === 404) return <ZoneNotFound name={name} />;
  const access = domain.data ? zoneAccess(domain.data) : undefined;
  const pool = q.data;
  const canWrite = (access?.records ?? false) && pool !== undefined;

  return (
    <div className="page">
      <ZonePageHeader
        name={name}
        view={`Pool ${pool?.name ?? poolId}`}
        access={access}
        actions={
          canWrite && !editing ? (
            <span className="row page-actions">
              <button type="button" className="btn" onClick={() => setEditing(true)}>
                Edit pool
              </button>
              <button type="button" className="btn btn-ghost-danger" onClick={() => setDeleting(pool ?? null)}>
                Delete pool
              </button>
            </span>
          ) : null
        }
      >
        {pool ? (
          <p className="muted">
            <span className="mono">{pool.fqdn}</span> · {upCount(pool.members)} · refreshed every 5 seconds
          </p>
        ) : null}
      </ZonePageHeader>

      {q.isPending ? (
        <LoadingState label="Loading the pool…" />
      ) : q.isError ? (
        q.error instanceof ApiError && q.error.status === 404 ? (
          <EmptyState title={`No pool ${poolId} in ${name}`}>It may have been deleted.</EmptyState>
        ) : (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the pool" />
        )
      ) : (
        <>
          {q.data.warnings.length > 0 ? (
            <Alert tone="warning" title="Warnings">
              <ul className="plain-list">
                {q.data.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </Alert>
          ) : null}
          {editing ? (
            <section className="card" aria-labelledby="pool-form-title">
              <h2 id="pool-form-title">Edit pool {q.data.name}</h2>
              <PoolForm zone={name} pool={q.data} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />
            </section>
          ) : (
            <section className="card pool-section" aria-labelledby="pool-facts-title">
              <h2 id="pool-facts-title">Answer and settings</h2>
              <PoolFacts pool={q.data} />
            </section>
          )}
          <section className="card pool-section" aria-labelledby="pool-members-title">
            <h2 id="pool-members-title">Members</h2>
            <MemberResults members={q.data.members} />
          </section>
          <section className="card pool-section" aria-labelledby="pool-timeline-title">
            <h2 id="pool-timeline-title">Timeline</h2>
            <PoolTimeline transitions={q.data.transitions} />
          </section>
        </>
      )}
      <DeletePoolDialog zone={name} pool={deleting} onClose={() => setDeleting(null)} onDeleted={() => navigate(routes.pools(name))} />
    </div>
  );
}
