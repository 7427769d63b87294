/**
 * New user: a username and whether they administer the service. The server chooses their
 * password and answers it once; the form gives way to it in a dialog, then forgets it. More than
 * 10 minutes after sign-in, the administrator's password is asked again first.
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { useCreateUser } from './create-user';
import { OneTimePasswordDialog } from './one-time-password';

export function CreateUserForm() {
  const [username, setUsername] = useState('');
  const [isAdmin, setIsAdmin] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateUser();
  const server = create.error instanceof ApiError ? create.error : null;
  const usernameError = (submitted && username.trim() === '' ? 'is required' : undefined) ?? server?.field('username');
  const otherError = create.error && !usernameError && !needsReauthentication(create.error) ? create.error.message : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (username.trim() === '') return;
    create.mutate({ username: username.trim(), is_admin: isAdmin });
  };

  // Dropping the mutation's result is what forgets the password in this tab.
  const done = () => {
    create.reset();
    setUsername('');
    setIsAdmin(false);
    setSubmitted(false);
  };

  return (
    <>
      <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Create a user">
        <TextField
          label="New user"
          name="username"
          value={username}
          autoComplete="off"
          spellCheck={false}
          placeholder="alice"
          onChange={(e) => {
            setUsername(e.target.value);
            if (create.error) create.reset();
          }}
          error={usernameError}
          hint="They get a one-time password to sign in with, shown once."
          className="grow"
        />
        <label className="check">
          <input type="checkbox" name="is_admin" checked={isAdmin} onChange={(e) => setIsAdmin(e.target.checked)} /> Administrator
        </label>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create user'}
        </button>
        {otherError ? <Alert title="Could not create the user">{otherError}</Alert> : null}
      </form>
      <ReauthenticateDialog error={create.error} onConfirmed={() => create.mutate({ username: username.trim(), is_admin: isAdmin })} onCancel={() => create.reset()} />
      <OneTimePasswordDialog shown={create.data ? { username: create.data.username, password: create.data.password, title: `User ${create.data.username} created` } : null} onDone={done} />
    </>
  );
}
