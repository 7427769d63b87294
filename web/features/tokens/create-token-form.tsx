/**
 * New token: a label, an optional lifetime in days and an optional scope (zones,
 * names, types, read_only, allowed_ips, named as the API names them), checked with the API's
 * limits as the user types; what the server still rejects shows on its field (`scope.zones.1`
 * on Zones, naming the entry). On success the form gives way to the secret, shown once.
 */
import { useRef, useState, type FormEvent } from 'react';
import { MAX_SCOPE_ENTRIES } from '../../../server/core/scope';
import { MAX_TOKEN_DAYS, MAX_TOKEN_LABEL } from '../../../server/core/token-rules';
import { ApiError } from '../../lib/api-client';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { ScopeFields, type ScopePart } from '../../ui/scope-fields';
import { EMPTY_SCOPE, scopeError, scopeOf, type ScopeDraft } from '../../lib/scope-text';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { useCreateToken } from './create-token';
import { NewTokenSecret } from './new-token-secret';
import { parseExpiryDays } from './token-expiry';

export function CreateTokenForm() {
  const [label, setLabel] = useState('');
  const [days, setDays] = useState('');
  const [scope, setScope] = useState<ScopeDraft>(EMPTY_SCOPE);
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
      setScope(EMPTY_SCOPE);
      setSubmitted(false);
    };
    return <NewTokenSecret token={create.data} onDone={done} />;
  }

  const expiry = parseExpiryDays(days);
  const server = create.error instanceof ApiError ? create.error : null;
  const labelError = (submitted && label.trim() === '' ? 'is required' : undefined) ?? server?.field('label');
  const daysError = expiry.error ?? server?.field('expires_in_days');
  const fields = server?.fields ?? {};
  const draft = scopeOf(scope);
  // The client's one check (the server's limit on entries), then what the server said about what was sent.
  const part = (p: ScopePart) => ((draft[p]?.length ?? 0) > MAX_SCOPE_ENTRIES ? `must list at most ${MAX_SCOPE_ENTRIES} entries` : undefined) ?? scopeError(fields, p, sent.current?.scope ?? {});
  const scopeInvalid = (['zones', 'names', 'types', 'allowed_ips'] as const).some((p) => (draft[p]?.length ?? 0) > MAX_SCOPE_ENTRIES);
  const known = Object.keys(fields).some((k) => k === 'label' || k === 'expires_in_days' || k.startsWith('scope'));
  const otherError = create.error && !needsReauthentication(create.error) && !known ? create.error.message : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (label.trim() === '' || expiry.error || scopeInvalid) return;
    sent.current = { label: label.trim(), ...(expiry.days === undefined ? {} : { expires_in_days: expiry.days }), ...(Object.keys(draft).length ? { scope: draft } : {}) };
    create.mutate(sent.current);
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create an API token">
      <div className="inline-form">
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
      </div>
      <ScopeFields what="token" scope={scope} onChange={setScope} error={part} readOnlyText="reads, never writes" />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </button>
      </div>
      {otherError ? <Alert title="Could not create the token">{otherError}</Alert> : null}
      <ReauthenticateDialog error={create.error} onConfirmed={() => sent.current && create.mutate(sent.current)} onCancel={() => create.reset()} />
    </form>
  );
}
