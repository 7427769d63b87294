/** Deleting a zone takes it off the air with every record in it (restorable from Deleted for HISTORY_DAYS): the user confirms by typing its name. */
import { useState } from 'react';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
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
  const confirmed = typed.trim().toLowerCase() === name;
  const onConfirm = () => {
    if (!name || !confirmed) return;
    del.mutate(name, {
      onSuccess: () => {
        toast('success', `Deleted ${name}`);
        close();
        onDeleted?.();
      },
    });
  };
  return (
    <ConfirmDialog
      open={name !== null}
      title={`Delete ${name ?? ''}?`}
      onCancel={close}
      onConfirm={onConfirm}
      confirmLabel="Delete domain"
      pendingLabel="Deleting…"
      pending={del.isPending}
      disabled={!confirmed}
      error={del.error ? <Alert title="Could not delete the domain">{del.error.message}</Alert> : null}
      form
    >
      <p>
        This deletes the zone <strong className="mono">{name}</strong> and every record in it. Name servers stop answering for it at once.{' '}
        {days
          ? `You can restore it, with its records, keys and history, from Deleted on the Domains page for ${days} days.`
          : 'You can restore it, with its records, keys and history, from Deleted on the Domains page.'}
      </p>
      <TextField label={`Type ${name ?? ''} to confirm`} value={typed} autoFocus autoComplete="off" spellCheck={false} onChange={(e) => setTyped(e.target.value)} />
    </ConfirmDialog>
  );
}
