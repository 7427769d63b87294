/**
 * A user's IP ranges, from the Users page: each registered address or network with Remove, and a
 * form to add one. The server's refusal of a bad address shows beside the input. The ranges only
 * advise the user's record editor (an address outside them is flagged, never refused).
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import type { User } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { useChangeUserIps, useUserIps } from './user-ips';

export function UserIpsDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Dialog open={user !== null} onClose={onClose} title={`IP ranges of ${user?.username ?? ''}`} wide>
      {user ? <UserIps username={user.username} /> : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}

function UserIps({ username }: { username: string }) {
  const q = useUserIps(username);
  const { add, remove } = useChangeUserIps(username);
  const [address, setAddress] = useState('');
  const [active, setActive] = useState(true);
  const error = add.error instanceof ApiError ? add.error : undefined;
  const addressError = error?.field('address');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate({ address: address.trim(), active }, { onSuccess: () => setAddress('') });
  };
  return (
    <div className="stack">
      <p className="muted small">Addresses and networks {username} uses. Their record editor suggests these and flags A and AAAA records outside them.</p>
      {q.isPending ? (
        <LoadingState label="Loading IP ranges…" />
      ) : q.isError ? (
        <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the IP ranges" />
      ) : q.data.length === 0 ? (
        <EmptyState title="No IP ranges">None registered: their editor flags no address.</EmptyState>
      ) : (
        <ul className="plain-list" aria-label={`IP ranges of ${username}`}>
          {q.data.map((ip) => (
            <li key={ip.id} className="actions-row">
              <span className="mono">{ip.first === ip.last ? ip.address : `${ip.address}/${ip.cidr}`}</span>
              {ip.active ? null : <span className="muted small"> (inactive)</span>}
              <button type="button" className="btn btn-small btn-ghost-danger" disabled={remove.isPending} onClick={() => remove.mutate(ip.id)} aria-label={`Remove ${ip.address}/${ip.cidr}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {remove.error ? <Alert title="Could not remove the range">{remove.error.message}</Alert> : null}
      <form className="inline-form" onSubmit={submit} noValidate aria-label={`Add an IP range for ${username}`}>
        <TextField
          label="Address or network"
          name="address"
          value={address}
          placeholder="198.51.100.0/24"
          spellCheck={false}
          autoComplete="off"
          error={addressError}
          onChange={(e) => {
            setAddress(e.target.value);
            if (add.error) add.reset();
          }}
        />
        <label className="check">
          <input type="checkbox" name="active" checked={active} onChange={(e) => setActive(e.target.checked)} /> Active
        </label>
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add range'}
        </button>
      </form>
      {add.error && !addressError ? <Alert title="Could not add the range">{add.error.message}</Alert> : null}
    </div>
  );
}
