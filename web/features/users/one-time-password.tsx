/**
 * A password the server just chose for a user, shown once: zonedeck keeps only its hash, so
 * after "Done" nobody can show it again. The admin hands it over; the user changes it on their
 * Account page.
 */
import { useRef } from 'react';
import { Alert } from '../../ui/alert';
import { CopyButton } from '../../ui/copy-button';
import { Dialog } from '../../ui/dialog';
import '../../ui/new-secret.css';

export function OneTimePasswordDialog({ shown, onDone }: { shown: { username: string; password: string; title: string } | null; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Dialog open={shown !== null} onClose={onDone} title={shown?.title ?? ''}>
      {shown ? (
        <div className="new-token">
          <Alert tone="warning" title="Copy it now: you will not see it again.">
            Give it to {shown.username} in a safe way. They sign in with it and can change it on their Account page.
          </Alert>
          <div className="field">
            <label htmlFor="one-time-password">One-time password for {shown.username}</label>
            <div className="secret-row">
              <input id="one-time-password" ref={input} className="mono grow" readOnly value={shown.password} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
              <CopyButton text={shown.password} label="Copy password" fallbackInput={input} />
            </div>
          </div>
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
