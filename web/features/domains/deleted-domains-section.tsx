/**
 * "Deleted": the zones deleted in the last HISTORY_DAYS days that the user may restore, with who
 * deleted them, when, and until when they can come back. Restore asks first, then brings the
 * zone back whole (records, keys, history) and opens it.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { fullTime, timeAgo } from '../../lib/format';
import { unicodeName } from '../../lib/idn';
import { routes } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { TableWrap } from '../../ui/table-wrap';
import { useToast } from '../../ui/toast';
import { useDeletedDomains, useRestoreDomain, type DeletedDomain } from './deleted-domains';

const day = (iso: string) => new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });

function RestoreDialog({ zone, onClose }: { zone: DeletedDomain | null; onClose: () => void }) {
  const restore = useRestoreDomain();
  const toast = useToast();
  const navigate = useNavigate();
  const close = () => {
    restore.reset();
    onClose();
  };
  const confirm = () => {
    if (!zone) return;
    restore.mutate(zone, {
      onSuccess: (restored) => {
        toast('success', `Restored ${restored.name}`);
        close();
        navigate(routes.domain(restored.name));
      },
    });
  };
  const records = zone ? `${zone.records} ${zone.records === 1 ? 'record' : 'records'}` : '';
  return (
    <ConfirmDialog
      open={zone !== null}
      title={`Restore ${zone?.name ?? ''}?`}
      onCancel={close}
      onConfirm={confirm}
      confirmLabel="Restore domain"
      pendingLabel="Restoring…"
      pending={restore.isPending}
      tone="primary"
      error={restore.error ? <Alert title="Could not restore the domain">{restore.error.message}</Alert> : null}
    >
      <p>
        The zone <strong className="mono">{zone?.name}</strong> comes back as it was when it was deleted: its {records}, SOA settings, history
        {zone?.dnssec ? ' and DNSSEC keys (the same keys, so the DS at the parent still matches)' : ''}. Name servers answer for it again at once, with a new serial.
      </p>
    </ConfirmDialog>
  );
}

export function DeletedDomainsSection() {
  const [page, setPage] = useState(1);
  const [restoring, setRestoring] = useState<DeletedDomain | null>(null);
  const q = useDeletedDomains(page);
  const days = q.data?.days;
  return (
    <section className="card" aria-labelledby="deleted-domains-title">
      <h2 id="deleted-domains-title">Deleted</h2>
      <p className="muted">Deleted zones are kept{days ? ` ${days} days` : ''} with their records, keys and history; restore one to bring it back as it was.</p>
      {q.isPending ? (
        <LoadingState label="Loading deleted domains…" />
      ) : q.isError ? (
        <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the deleted domains" />
      ) : q.data.total === 0 ? (
        <EmptyState title="No deleted domains" />
      ) : (
        <>
          <TableWrap label="Deleted domains">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Deleted</th>
                  <th scope="col">By</th>
                  <th scope="col" className="num">
                    Records
                  </th>
                  <th scope="col">Restorable until</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.data.items.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <span className="strong">{unicodeName(d.name) ?? d.name}</span>
                      {unicodeName(d.name) ? <span className="muted small mono"> {d.name}</span> : null}
                      {d.dnssec ? (
                        <>
                          {' '}
                          <Badge tone="success">Signed</Badge>
                        </>
                      ) : null}
                    </td>
                    <td>
                      <time dateTime={d.deleted_at} title={fullTime(d.deleted_at)}>
                        {timeAgo(d.deleted_at)}
                      </time>
                    </td>
                    <td>{d.deleted_by}</td>
                    <td className="num">{d.records}</td>
                    <td>
                      <time dateTime={d.expires_at} title={fullTime(d.expires_at)}>
                        {day(d.expires_at)}
                      </time>
                    </td>
                    <td className="actions">
                      <button type="button" className="btn btn-small" onClick={() => setRestoring(d)} aria-label={`Restore ${d.name}`}>
                        Restore
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Deleted domain pages" />
        </>
      )}
      <RestoreDialog zone={restoring} onClose={() => setRestoring(null)} />
    </section>
  );
}
