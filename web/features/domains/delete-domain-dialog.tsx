/** Deleting a zone takes it off the air with every record in it (restorable from Deleted for HISTORY_DAYS): the user confirms by typing its name. */
import { useState, type FormEvent } from 'react';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { useDeleteDomain } from './delete-domain';
import { useRestorableDays } from './deleted-domains';

export function DeleteDomainDialog({ name, onClose, onDeleted }: { name: string | null; onClose: () => void; onDeleted?: () => void }) {
  const [typed, setTyped] = useState('');
  const del = useDeleteDomain();
  const days = useRestorableDays();
  const toast = useToast();
  const close = () => {
    setTyped('');
    del.reset();
    onClose();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!name || typed.trim().toLowerCase() !== name) return;
    del.mutate(name, {
      onSuccess: () => {
        toast('success', `Deleted ${name}`);
        close();
        onDeleted?.();
      },
    });
  };
  return (
    <Dialog open={name !== null} onClose={close} title={`Delete ${name ?? ''}?`}>
      <form onSubmit={onSubmit} noValidate>
        <p>
          This deletes the zone <strong className="mono">{name}</strong> and every record in it. Name servers stop answering for it at once.{' '}
          {days ? `You can restore it, with its records, keys and history, from Deleted on the Domains page for ${days} days.` : 'You can restore it, with its records, keys and history, from Deleted on the Domains page.'}
        </p>
        <TextField label={`Type ${name ?? ''} to confirm`} value={typed} autoFocus autoComplete="off" spellCheck={false} onChange={(e) => setTyped(e.target.value)} />
        {del.error ? <Alert title="Could not delete the domain">{del.error.message}</Alert> : null}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={typed.trim().toLowerCase() !== name || del.isPending}>
            {del.isPending ? 'Deleting…' : 'Delete domain'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
