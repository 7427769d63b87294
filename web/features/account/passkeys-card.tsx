/**
 * Passkeys on the Account page: add one (the browser or phone makes it, after its PIN or
 * fingerprint), see each with when it was last used, remove one. Adding and removing need a
 * sign-in within 10 minutes, else the password is asked again: a passkey signs in on its own,
 * with no password, so a browser left open must not be able to add one.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, request } from '../../lib/api-client';
import { fullTime, timeAgo } from '../../lib/format';
import { bff } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { ErrorState, LoadingState } from '../../ui/states';
import { TableWrap } from '../../ui/table-wrap';
import { sessionKey } from '../../lib/get-session';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { accountKeys } from './keys';
import { passkeyAddress } from '../../lib/passkey-origin';
import { PasskeyAddressNote } from '../../ui/passkey-address-note';

interface Passkey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

async function addPasskey(name: string): Promise<Passkey> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const optionsJSON = await request<Parameters<typeof startRegistration>[0]['optionsJSON']>('POST', bff.passkeyOptions);
  const response = await startRegistration({ optionsJSON });
  return request<Passkey>('POST', bff.passkeyRegister, { body: { name, response } });
}

export function PasskeysCard() {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: accountKeys.passkeys, queryFn: () => request<Passkey[]>('GET', bff.passkeys) });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: accountKeys.passkeys });
    void qc.invalidateQueries({ queryKey: sessionKey });
  };
  const add = useMutation({ mutationFn: addPasskey, onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: string) => request<void>('DELETE', `${bff.passkeys}/${encodeURIComponent(id)}`), onSuccess: refresh });
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const atAddress = passkeyAddress(window.location);

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    add.mutate(name.trim(), { onSuccess: () => setName('') });
  };
  const nameError = add.error instanceof ApiError ? add.error.field('name') : undefined;
  const addError =
    add.error && !nameError && !needsReauthentication(add.error) ? (add.error instanceof ApiError ? add.error.message : `The browser did not make a passkey: ${add.error.message}`) : undefined;

  return (
    <section className="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p className="muted">A passkey signs you in with this device's screen lock or a security key, without a password, and cannot be phished.</p>
      {list.isPending ? (
        <LoadingState label="Loading your passkeys…" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => void list.refetch()} title="Could not load your passkeys" />
      ) : list.data.length > 0 ? (
        <TableWrap label="Passkeys">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((p) => (
                <tr key={p.id}>
                  <td className="strong">{p.name}</td>
                  <td>
                    <time dateTime={p.created_at} title={fullTime(p.created_at)}>
                      {timeAgo(p.created_at)}
                    </time>
                  </td>
                  <td>{p.last_used_at ? <time dateTime={p.last_used_at}>{timeAgo(p.last_used_at)}</time> : <span className="muted">never</span>}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="btn btn-small btn-ghost-danger"
                      disabled={remove.isPending}
                      aria-label={`Remove passkey ${p.name}`}
                      onClick={() => {
                        setRemoving(p.id);
                        remove.mutate(p.id);
                      }}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : (
        <p>No passkey yet.</p>
      )}
      {remove.error && !needsReauthentication(remove.error) ? <Alert title={remove.error.message} /> : null}
      {addError ? <Alert title="Could not add the passkey">{addError}</Alert> : null}
      {atAddress ? <PasskeyAddressNote problem={atAddress} /> : null}
      <form className="inline-form" onSubmit={onAdd} noValidate aria-label="Add a passkey">
        <TextField label="Passkey name" name="passkey-name" placeholder="Laptop" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} error={nameError} />
        <button type="submit" className="btn btn-primary" disabled={add.isPending || !name.trim()}>
          {add.isPending ? 'Waiting for the device…' : 'Add a passkey'}
        </button>
      </form>
      <ReauthenticateDialog error={add.error} onConfirmed={() => name.trim() && add.mutate(name.trim(), { onSuccess: () => setName('') })} onCancel={() => add.reset()} />
      <ReauthenticateDialog error={remove.error} onConfirmed={() => removing && remove.mutate(removing)} onCancel={() => remove.reset()} />
    </section>
  );
}
