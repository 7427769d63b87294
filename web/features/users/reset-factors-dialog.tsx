/** Removing a user's second factors (a lost phone) signs them out and leaves them their password alone: asked first. */
import type { User } from '../../lib/api-types';
import { ConfirmDialog } from '../../ui/confirm-dialog';

export function ResetFactorsDialog({ user, onClose, onConfirm }: { user: User | null; onClose: () => void; onConfirm: (u: User) => void }) {
  return (
    <ConfirmDialog
      open={user !== null}
      title={`Remove the two-factor sign-in and every passkey of ${user?.username ?? ''}?`}
      onCancel={onClose}
      onConfirm={() => {
        if (user) onConfirm(user);
        onClose();
      }}
      confirmLabel="Reset two-factor"
    >
      <p>They are signed out, and sign in with their password alone until they set them up again.</p>
    </ConfirmDialog>
  );
}
