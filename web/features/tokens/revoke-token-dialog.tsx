/** Revoking a token breaks whatever uses it, at once: the user confirms with the token's label in view. */
import type { ApiToken } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
import { useToast } from '../../ui/toast';
import { useRevokeToken } from './revoke-token';

export function RevokeTokenDialog({ token, onClose }: { token: ApiToken | null; onClose: () => void }) {
  const revoke = useRevokeToken();
  const toast = useToast();
  const close = () => {
    revoke.reset();
    onClose();
  };
  const confirm = () => {
    if (!token) return;
    revoke.mutate(token.id, {
      onSuccess: () => {
        toast('success', `Revoked “${token.label}”`);
        close();
      },
    });
  };
  return (
    <Dialog open={token !== null} onClose={close} title={`Revoke “${token?.label ?? ''}”?`}>
      <p>Every script or tool using this token gets “401 Unauthorized” from its next request. This cannot be undone; you can create a new token instead.</p>
      {revoke.error ? <Alert title="Could not revoke the token">{revoke.error.message}</Alert> : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" disabled={revoke.isPending} onClick={confirm}>
          {revoke.isPending ? 'Revoking…' : 'Revoke token'}
        </button>
      </div>
    </Dialog>
  );
}
