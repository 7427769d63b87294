/** Revoking a key breaks whatever signs with it, within a second: the user confirms with its name in view. */
import type { TsigKey } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { Dialog } from '../../ui/dialog';
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
    <Dialog open={tsigKey !== null} onClose={close} title={`Revoke “${tsigKey?.name ?? ''}”?`}>
      <p>Secondaries, ACME clients and scripts signing with this key get NOTAUTH (BADKEY) from the DNS server within a second. This cannot be undone.</p>
      {revoke.error ? <Alert title="Could not revoke the key">{revoke.error.message}</Alert> : null}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" disabled={revoke.isPending} onClick={confirm}>
          {revoke.isPending ? 'Revoking…' : 'Revoke key'}
        </button>
      </div>
    </Dialog>
  );
}
