/**
 * New TSIG key: a name, an algorithm and an optional scope (the ACME case is one click away).
 * What the server rejects shows on its field; on success the form gives way to the secret.
 */
import { useRef, useState, type FormEvent } from 'react';
import { TSIG_ALGORITHM_NAMES } from '../../../server/core/tsig-rules';
import { ApiError } from '../../lib/api-client';
import type { TsigKeyCreate } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { SelectField, TextField } from '../../ui/field';
import { ScopeFields, type ScopePart } from '../../ui/scope-fields';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { useCreateTsigKey } from './create-tsig-key';
import { NewTsigKeySecret } from './new-tsig-key-secret';
import { EMPTY_SCOPE, scopeError, scopeOf, type ScopeDraft } from '../../lib/scope-text';

const FIELDS = ['name', 'algorithm'];

export function CreateTsigKeyForm() {
  const [name, setName] = useState('');
  const [algorithm, setAlgorithm] = useState<string>(TSIG_ALGORITHM_NAMES[0]);
  const [scope, setScope] = useState<ScopeDraft>(EMPTY_SCOPE);
  const [sent, setSent] = useState<TsigKeyCreate | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateTsigKey();
  // What was last sent: sent again once the password has been confirmed (a sign-in more than 10 minutes old).
  const lastSent = useRef<TsigKeyCreate | null>(null);

  if (create.data) {
    // Dropping the mutation's result is what forgets the secret in this tab.
    const done = () => {
      create.reset();
      setName('');
      setScope(EMPTY_SCOPE);
      setSubmitted(false);
    };
    return <NewTsigKeySecret tsigKey={create.data} onDone={done} />;
  }

  const server = create.error instanceof ApiError ? create.error : null;
  const fields = server?.fields ?? {};
  const sentScope = sent?.scope ?? {};
  const part = (p: ScopePart) => scopeError(fields, p, sentScope);
  const known = Object.keys(fields).some((k) => FIELDS.includes(k) || k.startsWith('scope'));
  const otherError = create.error && !known && !needsReauthentication(create.error) ? create.error.message : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === '') return;
    const input: TsigKeyCreate = { name: name.trim(), algorithm, scope: scopeOf(scope) };
    setSent(input);
    lastSent.current = input;
    create.mutate(input);
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create a TSIG key">
      <div className="inline-form">
        <TextField
          label="Key name"
          name="name"
          value={name}
          autoComplete="off"
          placeholder="acme-key"
          onChange={(e) => setName(e.target.value)}
          error={(submitted && name.trim() === '' ? 'is required' : undefined) ?? server?.field('name')}
          hint="A domain name, unique on this service: clients send it with every signed message."
          className="grow"
        />
        <SelectField label="Algorithm" name="algorithm" value={algorithm} onChange={(e) => setAlgorithm(e.target.value)} error={server?.field('algorithm')}>
          {TSIG_ALGORITHM_NAMES.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </SelectField>
      </div>
      <ScopeFields
        what="key"
        scope={scope}
        onChange={setScope}
        error={part}
        readOnlyText="transfers and queries, no updates"
        actions={
          <button type="button" className="btn btn-small" onClick={() => setScope({ ...scope, names: '_acme-challenge, _acme-challenge.*', types: 'TXT', readOnly: false })}>
            Limit to ACME challenges
          </button>
        }
      />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </div>
      {otherError ? <Alert title="Could not create the key">{otherError}</Alert> : null}
      <ReauthenticateDialog error={create.error} onConfirmed={() => lastSent.current && create.mutate(lastSent.current)} onCancel={() => create.reset()} />
    </form>
  );
}
