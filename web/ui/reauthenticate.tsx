/**
 * Asked again: an act that adds or removes a way in (a token, a TSIG key, a second factor, a
 * passkey, single sign-on) or acts on another user, more than 10 minutes after sign-in, answers
 * `reauthentication_required`; this dialog takes the password (and the second factor's code, when
 * the account has one), tells the BFF, and then lets the form send its request again. With single sign-on, signing in again through the
 * provider does as well (and comes back to this page); with password sign-in off, it is the only way.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, request } from '../lib/api-client';
import { bff } from '../lib/paths';
import { Alert } from './alert';
import { Dialog } from './dialog';
import { TextField } from './field';
import { useSignInMethods } from '../lib/sign-in-methods';

/** Whether a request failed only because the sign-in is too old for it. */
export const needsReauthentication = (e: unknown): boolean => e instanceof ApiError && e.code === 'reauthentication_required';

export function ReauthenticateDialog({ error, onConfirmed, onCancel }: { error: unknown; onConfirmed: () => void; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const confirm = useMutation({ mutationFn: (body: { password: string; code?: string }) => request<void>('POST', bff.reauthenticate, { body }) });
  const open = needsReauthentication(error);
  const methods = useSignInMethods();
  const oidc = methods.data?.oidc ?? null;
  const passwordOn = methods.data?.password !== false;
  const here = `${window.location.pathname}${window.location.search}`;

  const close = () => {
    setPassword('');
    setCode('');
    confirm.reset();
    // The dialog also closes by itself once the retried request has cleared the error: that is no
    // cancel, and resetting the request then would drop its answer (a new token, a one-time password).
    if (open) onCancel();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!password) return;
    confirm.mutate(
      { password, ...(needsCode ? { code: code.trim() } : {}) },
      {
        onSuccess: () => {
          setPassword('');
          setCode('');
          confirm.reset();
          onConfirmed();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'second_factor_required') setNeedsCode(true);
        },
      },
    );
  };
  const asked = confirm.error instanceof ApiError && confirm.error.code === 'second_factor_required';

  return (
    <Dialog open={open} onClose={close} title="Confirm it is you">
      <p className="muted">{error instanceof Error ? error.message : ''}</p>
      {confirm.error && !asked ? <Alert title={confirm.error.message} /> : null}
      {oidc ? (
        <p>
          <a className="btn btn-block" href={`${bff.oidcStart}?next=${encodeURIComponent(here)}`}>
            Sign in again with {oidc.name}
          </a>
        </p>
      ) : null}
      {passwordOn ? (
        <form onSubmit={onSubmit} noValidate aria-label="Confirm your password">
          <TextField label="Your password" name="password" type="password" autoComplete="current-password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
          {needsCode ? (
            <TextField
              label="Authentication code"
              name="code"
              autoComplete="one-time-code"
              spellCheck={false}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              hint="6 digits from your app, or a recovery code"
            />
          ) : null}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={confirm.isPending || !password}>
              {confirm.isPending ? 'Checking…' : 'Confirm'}
            </button>
          </div>
        </form>
      ) : (
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
        </div>
      )}
    </Dialog>
  );
}
