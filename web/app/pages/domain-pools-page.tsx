/**
 * A zone's health-checked pools: each with what DNS answers now and its members up or down (asked
 * again every 5 s), a "New pool" form, and Edit and Delete for those who may change the records.
 */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useDomain } from '../../features/domains/get-domain';
import { zoneAccess } from '../../features/domains/zone-access';
import { ZoneNotFound, ZonePageHeader } from '../../features/domains/zone-page-header';
import { DeletePoolDialog } from '../../features/pools/delete-pool-dialog';
import { usePools } from '../../lib/list-pools';
import { PoolForm } from '../../features/pools/pool-form';
import { PoolsList } from '../../features/pools/pools-list';
import { ApiError } from '../../lib/api-client';
import type { Pool } from '../../lib/api-types';
import { usePageTitle } from '../../lib/page-title';
import { routes } from '../../lib/paths';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import '../../features/pools/pools.css';

export function Component() {
  const name = useParams().name ?? '';
  usePageTitle(name, 'Pools');
  const domain = useDomain(name);
  const pools = usePools(name);
  const navigate = useNavigate();
  /** The form open: a new pool (`'new'`) or the pool being changed. */
  const [editing, setEditing] = useState<Pool | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Pool | null>(null);

  if (domain.isError && domain.error instanceof ApiError && domain.error.status === 404) return <ZoneNotFound name={name} />;
  const access = domain.data ? zoneAccess(domain.data) : undefined;
  const canWrite = access?.records ?? false;

  return (
    <div className="page">
      <ZonePageHeader
        name={name}
        view="Pools"
        access={access}
        actions={
          canWrite && editing === null ? (
            <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
              New pool
            </button>
          ) : null
        }
      >
        <p className="muted">A pool is a name whose addresses are checked from every node: DNS answers only those that are up. Refreshed every 5 seconds.</p>
      </ZonePageHeader>

      {editing !== null ? (
        <section className="card" aria-labelledby="pool-form-title">
          <h2 id="pool-form-title">{editing === 'new' ? 'New pool' : `Edit pool ${editing.name}`}</h2>
          <PoolForm
            key={editing === 'new' ? 'new' : editing.id}
            zone={name}
            pool={editing === 'new' ? undefined : editing}
            onSaved={(p) => {
              setEditing(null);
              if (editing === 'new') navigate(routes.pool(name, String(p.id)));
            }}
            onCancel={() => setEditing(null)}
          />
        </section>
      ) : null}

      <section className="card pool-section" aria-labelledby="pools-title">
        <h2 id="pools-title">Pools</h2>
        {pools.isPending ? (
          <LoadingState label="Loading the pools…" />
        ) : pools.isError ? (
          <ErrorState error={pools.error} retry={() => void pools.refetch()} title="Could not load the pools" />
        ) : pools.data.length === 0 ? (
          <EmptyState title="No pools yet">{canWrite ? 'Press “New pool” to answer a name only with servers that pass a health check.' : null}</EmptyState>
        ) : (
          <PoolsList zone={name} pools={pools.data} onEdit={canWrite ? setEditing : undefined} onDelete={canWrite ? setDeleting : undefined} />
        )}
      </section>
      <DeletePoolDialog zone={name} pool={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
