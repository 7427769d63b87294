/**
 * A user's email address (administrators only). Single sign-on never links by it: a first sign-in
 * through the provider whose verified address is a user's makes no second account (even with
 * OIDC_AUTO_CREATE) and is told to link from that user's Account page. An empty address clears it.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';

const setEmail = ({ username, email }: { username: string; email: string | null }) => request<{ username: string; email: string | null }>('PUT', `${bff.user(username)}/email`, { body: { email } });

export function UserEmailForm() {
  const [username, setUsername] = useState('');
  const [email, setEmailText] = useState('');
  const save = useMutation({ mutationFn: setEmail });
  const toast = useToast();
  const server = save.error instanceof ApiError ? save.error : null;
  const emailError = server?.field('email');
  const other = save.error && !emailError && !needsReauthentication(save.error) ? save.error.message : undefined;

  const send = () =>
    save.mutate(
      { username: username.trim(), email: email.trim() || null },
      {
        onSuccess: (r) => {
          toast('success', r.email ? `${r.username} has the email address ${r.email}` : `${r.username} has no email address now`);
          setUsername('');
          setEmailText('');
        },
      },
    );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim()) return;
    send();
  };

  return (
    <>
      <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Email address for single sign-on">
        <TextField label="Username" name="sso-username" value={username} autoComplete="off" spellCheck={false} placeholder="alice" onChange={(e) => setUsername(e.target.value)} />
        <TextField
          label="Email for single sign-on"
          name="sso-email"
          type="email"
          value={email}
          autoComplete="off"
          spellCheck={false}
          placeholder="alice@example.com"
          maxLength={254}
          onChange={(e) => setEmailText(e.target.value)}
          error={emailError}
          hint="A first single sign-on with this address (verified by the provider) makes no second account: it is told to link from the Account page. Empty clears it."
          className="grow"
        />
        <button type="submit" className="btn" disabled={save.isPending || !username.trim()}>
          {save.isPending ? 'Saving…' : 'Set email'}
        </button>
        {other ? <Alert title="Could not set the email address">{other}</Alert> : null}
      </form>
      <ReauthenticateDialog error={save.error} onConfirmed={send} onCancel={() => save.reset()} />
    </>
  );
}
