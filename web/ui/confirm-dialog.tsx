/**
 * Every "are you sure?" of the dashboard: a modal that says what will happen, shows the server's
 * refusal, and offers Cancel (focused first, so a stray Enter never confirms) and the act itself,
 * named on its button. A confirmation that is typed (a zone's name) is a form: the act submits
 * it, and the field inside takes the first focus.
 */
import type { FormEvent, ReactNode } from 'react';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** Cancel, Escape and the act's own end all close through here. */
  onCancel: () => void;
  onConfirm: () => void;
  /** The act, as its button says it ("Delete domain"). */
  confirmLabel: string;
  /** The button's words while the act runs ("Deleting…"). */
  pendingLabel?: string;
  pending?: boolean;
  /** The act cannot be confirmed yet (a name not typed, a preview not loaded). */
  disabled?: boolean;
  /** Danger for what cannot be taken back, primary for what can. */
  tone?: 'danger' | 'primary';
  /** Why the server refused: shown above the buttons. */
  error?: ReactNode;
  wide?: boolean;
  /** The act submits a form (Enter in a field inside confirms). */
  form?: boolean;
  children: ReactNode;
}

export function ConfirmDialog({
  open,
  title,
  onCancel,
  onConfirm,
  confirmLabel,
  pendingLabel,
  pending = false,
  disabled = false,
  tone = 'danger',
  error,
  wide = false,
  form = false,
  children,
}: ConfirmDialogProps) {
  const body = (
    <>
      {children}
      {error}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onCancel} autoFocus={!form}>
          Cancel
        </button>
        <button type={form ? 'submit' : 'button'} className={`btn btn-${tone}`} disabled={pending || disabled} onClick={form ? undefined : onConfirm}>
          {pending && pendingLabel ? pendingLabel : confirmLabel}
        </button>
      </div>
    </>
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onConfirm();
  };
  return (
    <Dialog open={open} onClose={onCancel} title={title} wide={wide}>
      {form ? (
        <form onSubmit={submit} noValidate>
          {body}
        </form>
      ) : (
        body
      )}
    </Dialog>
  );
}
