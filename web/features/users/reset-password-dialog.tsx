/**
 * Resetting a user's password: confirmed first (their password stops working at once and every
 * session of theirs ends), then the one-time password the server chose is shown once.
 */
import type { User } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { OneTimePasswordDialog } from './one-time-password';
import { useResetPassword } from './reset-password';

export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const reset = useResetPassword();
  // Dropping the mutation's result is what forgets the password in this tab.
  const close = () => {
    reset.reset();
    onClose();
  };
  if (reset.data && user) {
    return <OneTimePasswordDialog shown={{ username: user.username, password: reset.data.password, title: `New password for ${user.username}` }} onDone={close} />;
  }
  return (
    <ConfirmDialog
      open={user !== null}
      title={`Reset the password of ${user?.username ?? ''}?`}
      onCancel={close}
      onConfirm={() => user && reset.mutate(user.username)}
      confirmLabel="Reset password"
      pendingLabel="Resetting…"
      pending={reset.isPending}
      error={reset.error && !needsReauthentication(reset.error) ? <Alert title="Could not reset the password">{reset.error.message}</Alert> : null}
    >
      <p>Their current password stops working at once, and they are signed out everywhere. You get a one-time password to give them; they can change it on their Account page.</p>
      <ReauthenticateDialog error={reset.error} onConfirmed={() => user && reset.mutate(user.username)} onCancel={() => reset.reset()} />
    </ConfirmDialog>
  );
}
