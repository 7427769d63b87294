/** Revoking a key breaks whatever signs with it, within a second: the user confirms with its name in view. */
import type { TsigKey } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { useRevokeTsigKey } from './revoke-tsig-key';

export function RevokeTsigKeyDialog({ tsigKey, onClose }: { tsigKey: TsigKey | null; onClose: () => void }) {
  const revoke = useRevokeTsigKey();
  const toast = useToast();
  const close = () => {
    revoke.reset();
    onClose();
  };
  const confirm = () => {
    if (!tsigKey) return;
    revoke.mutate(tsigKey.name, {
      onSuccess: () => {
        toast('success', `Revoked “${tsigKey.name}”`);
        close();
      },
    });
  };
  return (
    <ConfirmDialog
      open={tsigKey !== null}
      title={`Revoke “${tsigKey?.name ?? ''}”?`}
      onCancel={close}
      onConfirm={confirm}
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      error={revoke.error ? <Alert title="Could not revoke the key">{revoke.error.message}</Alert> : null}
    >
      <p>Secondaries, ACME clients and scripts signing with this key get NOTAUTH (BADKEY) from the DNS server within a second. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
