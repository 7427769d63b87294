/**
 * A password the server just chose for a user, shown once: zonedeck keeps only its hash, so
 * after "Done" nobody can show it again. The admin hands it over; the user changes it on their
 * Account page.
 */
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { SecretField } from '../../ui/secret-field';
import '../../ui/new-secret.css';

export function OneTimePasswordDialog({ shown, onDone }: { shown: { username: string; password: string; title: string } | null; onDone: () => void }) {
  return (
    <Dialog open={shown !== null} onClose={onDone} title={shown?.title ?? ''}>
      {shown ? (
        <div className="new-token">
          <Alert tone="warning" title="Copy it now: you will not see it again.">
            Give it to {shown.username} in a safe way. They sign in with it and can change it on their Account page.
          </Alert>
          <SecretField id="one-time-password" label={<>One-time password for {shown.username}</>} value={shown.password} copyLabel="Copy password" />
          <div className="dialog-actions">
            <button type="button" className="btn btn-primary" onClick={onDone}>
              Done, I have copied it
            </button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
