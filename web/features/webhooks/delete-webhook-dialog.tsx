/** Deleting a webhook stops its deliveries, pending retries included: confirmed first. */
import type { Webhook } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { useDeleteWebhook } from './webhook-mutations';

export function DeleteWebhookDialog({ webhook, onClose, onDeleted }: { webhook: Webhook | null; onClose: () => void; onDeleted?: () => void }) {
  const remove = useDeleteWebhook();
  const toast = useToast();
  const close = () => {
    remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!webhook) return;
    remove.mutate(webhook.id, {
      onSuccess: () => {
        toast('success', `Deleted the webhook to ${webhook.url}`);
        close();
        onDeleted?.();
      },
    });
  };
  return (
    <ConfirmDialog
      open={webhook !== null}
      title="Delete this webhook?"
      onCancel={close}
      onConfirm={confirm}
      confirmLabel="Delete webhook"
      pendingLabel="Deleting…"
      pending={remove.isPending}
      error={remove.error ? <Alert title="Could not delete the webhook">{remove.error.message}</Alert> : null}
    >
      <p>
        <span className="mono webhook-url">{webhook?.url}</span> gets no more events, and deliveries waiting for a retry are dropped with its log. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
