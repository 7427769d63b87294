/** Deleting a team: refused while it owns zones (409, the server's message shown here). */
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { useDeleteTeam } from './delete-team';

export function DeleteTeamDialog({ team, open, onClose, onDeleted }: { team: string; open: boolean; onClose: () => void; onDeleted: () => void }) {
  const del = useDeleteTeam();
  const toast = useToast();
  const close = () => {
    del.reset();
    onClose();
  };
  const confirm = () =>
    del.mutate(team, {
      onSuccess: () => {
        toast('success', `Deleted team ${team}`);
        close();
        onDeleted();
      },
    });
  return (
    <ConfirmDialog
      open={open}
      title={`Delete team ${team}?`}
      onCancel={close}
      onConfirm={confirm}
      confirmLabel="Delete team"
      pendingLabel="Deleting…"
      pending={del.isPending}
      error={del.error ? <Alert title="Could not delete the team">{del.error.message}</Alert> : null}
    >
      <p>Its members lose their roles. A team that still owns zones cannot be deleted: move or delete them first.</p>
    </ConfirmDialog>
  );
}
