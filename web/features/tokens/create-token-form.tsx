/**
 * New token: a label and an optional lifetime in days, checked with the API's limits as the
 * user types; what the server still rejects shows on its field. On success the form gives
 * way to the secret, shown once.
 */
import { useRef, useState, type FormEvent } from 'react';
import { MAX_TOKEN_DAYS, MAX_TOKEN_LABEL } from '../../../server/core/token-rules';
import { ApiError } from '../../lib/api-client';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { needsReauthentication, ReauthenticateDialog } from '../session/reauthenticate';
import { useCreateToken } from './create-token';
import { NewTokenSecret } from './new-token-secret';
import { parseExpiryDays } from './token-expiry';

export function CreateTokenForm() {
  const [label, setLabel] = useState('');
  const [days, setDays] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateToken();
  // What was last sent: sent again once the password has been confirmed (a sign-in more than 10 minutes old).
  const sent = useRef<Parameters<typeof create.mutate>[0] | null>(null);

  if (create.data) {
    // Dropping the mutation's result is what forgets the secret in this tab.
    const done = () => {
      create.reset();
      setLabel('');
      setDays('');
      setSubmitted(false);
    };
    return <NewTokenSecret token={create.data} onDone={done} />;
  }

  const expiry = parseExpiryDays(days);
  const server = create.error instanceof ApiError ? create.error : null;
  const labelError = (submitted && label.trim() === '' ? 'is required' : undefined) ?? server?.field('label');
  const daysError = expiry.error ?? server?.field('expires_in_days');
  const otherError = create.error && !needsReauthentication(create.error) && !(server && (server.field('label') || server.field('expires_in_days'))) ? create.error.message : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (label.trim() === '' || expiry.error) return;
    sent.current = { label: label.trim(), ...(expiry.days === undefined ? {} : { expires_in_days: expiry.days }) };
    create.mutate(sent.current);
  };

  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Create an API token">
      <TextField
        label="Label"
        name="label"
        value={label}
        maxLength={MAX_TOKEN_LABEL}
        autoComplete="off"
        placeholder="deploy script"
        onChange={(e) => setLabel(e.target.value)}
        error={labelError}
        hint="Where the token will be used, so you know which one to revoke later."
        className="grow"
      />
      <TextField
        label="Expires after (days)"
        name="expires_in_days"
        value={days}
        inputMode="numeric"
        autoComplete="off"
        placeholder="never"
        onChange={(e) => setDays(e.target.value)}
        error={daysError}
        hint={`Optional, 1–${MAX_TOKEN_DAYS}. Leave empty for a token that does not expire.`}
      />
      <button type="submit" className="btn btn-primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create token'}
      </button>
      {otherError ? <Alert title="Could not create the token">{otherError}</Alert> : null}
      <ReauthenticateDialog error={create.error} onConfirmed={() => sent.current && create.mutate(sent.current)} onCancel={() => create.reset()} />
    </form>
  );
}
