/**
 * Resetting a user's password: confirmed first (their password stops working at once and every
 * session of theirs ends), then the one-time password the server chose is shown once.
 */
import type { User } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
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
    <Dialog open={user !== null} onClose={close} title={`Reset the password of ${user?.username ?? ''}?`}>
      <p>Their current password stops working at once, and they are signed out everywhere. You get a one-time password to give them; they can change it on their Account page.</p>
      {reset.error && !needsReauthentication(reset.error) ? <Alert title="Could not reset the password">{reset.error.message}</Alert> : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" disabled={reset.isPending} onClick={() => user && reset.mutate(user.username)}>
          {reset.isPending ? 'Resetting…' : 'Reset password'}
        </button>
      </div>
      <ReauthenticateDialog error={reset.error} onConfirmed={() => user && reset.mutate(user.username)} onCancel={() => reset.reset()} />
    </Dialog>
  );
}
