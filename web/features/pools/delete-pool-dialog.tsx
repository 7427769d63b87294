/** Deleting a pool removes its name's records with it (one change set, which History can revert): confirmed first. */
import type { Pool } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { useDeletePool } from './save-pool';

export function DeletePoolDialog({ zone, pool, onClose, onDeleted }: { zone: string; pool: Pool | null; onClose: () => void; onDeleted?: () => void }) {
  const remove = useDeletePool(zone);
  const toast = useToast();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!pool) return;
    remove.mutate(pool.id, {
      onSuccess: () => {
        toast('success', `Deleted pool “${pool.name}”`);
        close();
        onDeleted?.();
      },
    });
  };
  return (
    <ConfirmDialog
      open={pool !== null}
      title={`Delete pool “${pool?.name ?? ''}”?`}
      onCancel={close}
      onConfirm={confirm}
      confirmLabel="Delete pool"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      error={remove.error ? <Alert title="Could not delete the pool">{remove.error.message}</Alert> : null}
    >
      <p>
        <span className="mono">{pool?.fqdn}</span> stops being checked and its {pool?.type} records ({pool?.answer.join(', ') || 'none now'}) leave the zone. History can bring the pool back.
      </p>
    </ConfirmDialog>
  );
}
