/** Deleting a team: refused while it owns zones (409, the server's message shown here). */
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
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
    <Dialog open={open} onClose={close} title={`Delete team ${team}?`}>
      <p>Its members lose their roles. A team that still owns zones cannot be deleted: move or delete them first.</p>
      {del.error ? <Alert title="Could not delete the team">{del.error.message}</Alert> : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" disabled={del.isPending} onClick={confirm}>
          {del.isPending ? 'Deleting…' : 'Delete team'}
        </button>
      </div>
    </Dialog>
  );
}
