/** Revoking a token breaks whatever uses it, at once: the user confirms with the token's label in view. */
import type { ApiToken } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
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
    <ConfirmDialog
      open={token !== null}
      title={`Revoke “${token?.label ?? ''}”?`}
      onCancel={close}
      onConfirm={confirm}
      confirmLabel="Revoke token"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      error={revoke.error ? <Alert title="Could not revoke the token">{revoke.error.message}</Alert> : null}
    >
      <p>Every script or tool using this token gets “401 Unauthorized” from its next request. This cannot be undone; you can create a new token instead.</p>
    </ConfirmDialog>
  );
}
