/**
 * Change password: the current one, then the new one twice. The form checks what it can (all
 * filled in, the two alike); the server's verdicts (a wrong current password, a new one it
 * refuses) show on their fields.
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { useChangePassword } from './change-password';
import { hasProblems, passwordProblems, type PasswordDraft } from './password-check';
import './account.css';

const EMPTY: PasswordDraft = { current: '', next: '', confirm: '' };

/** `onChanged`: after the server took the new password (the first sign-in's step goes on to the dashboard). */
export function ChangePasswordForm({ username, onChanged, currentLabel = 'Current password' }: { username: string; onChanged?: () => void; currentLabel?: string }) {
  const [draft, setDraft] = useState<PasswordDraft>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const change = useChangePassword();
  const toast = useToast();

  const local = submitted ? passwordProblems(draft) : {};
  const server = change.error instanceof ApiError ? change.error : null;
  const currentError = local.current ?? server?.field('current_password');
  const nextError = local.next ?? server?.field('new_password');
  const otherError = change.error && !(server?.field('current_password') || server?.field('new_password')) ? change.error.message : undefined;

  const set = (key: keyof PasswordDraft) => (e: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [key]: e.target.value }));
    change.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (hasProblems(passwordProblems(draft))) return;
    change.mutate(
      { current_password: draft.current, new_password: draft.next },
      {
        onSuccess: () => {
          toast('success', 'Password changed');
          setDraft(EMPTY);
          setSubmitted(false);
          onChanged?.();
        },
      },
    );
  };

  return (
    <form className="stack-form" onSubmit={onSubmit} noValidate aria-label="Change your password">
      {/* Lets a password manager file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <TextField label={currentLabel} name="current_password" type="password" autoComplete="current-password" value={draft.current} onChange={set('current')} error={currentError} />
      <TextField label="New password" name="new_password" type="password" autoComplete="new-password" value={draft.next} onChange={set('next')} error={nextError} />
      <TextField label="Confirm new password" name="confirm_password" type="password" autoComplete="new-password" value={draft.confirm} onChange={set('confirm')} error={local.confirm} />
      {otherError ? <Alert title="Could not change the password">{otherError}</Alert> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
