/**
 * Revert after a preview: the dialog shows the change set a revert would apply (a dry run),
 * takes an optional comment, and applies exactly that on Confirm (If-Match the preview's
 * serial). When the records the change touched have changed since, the server's 409 names
 * them and nothing can be applied.
 */
import { useState } from 'react';
import { ApiError } from '../../lib/api-client';
import type { ChangeSet } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { TextField } from '../../ui/field';
import { LoadingState } from '../../ui/states';
import { useToast } from '../../ui/toast';
import { ChangeDiff } from '../../ui/change-diff';
import { useRevertChange, useRevertPreview } from './revert-change';
import './history.css';

/** The server's refusal, with each RRset or setting it names on its own line. */
function Refusal({ error, title }: { error: Error; title: string }) {
  const fields = error instanceof ApiError ? Object.entries(error.fields) : [];
  return (
    <Alert title={title}>
      <p>{error.message}</p>
      {fields.length ? (
        <ul className="refusal-list">
          {fields.map(([k, v]) => (
            <li key={k}>
              <code>{k}</code>: {v}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}

export function RevertDialog({ domain, change, onClose }: { domain: string; change: ChangeSet | null; onClose: () => void }) {
  const id = change?.id ?? null;
  const preview = useRevertPreview(domain, id);
  const revert = useRevertChange(domain);
  const toast = useToast();
  const [comment, setComment] = useState('');
  const close = () => {
    revert.reset();
    setComment('');
    onClose();
  };
  const stale = revert.error instanceof ApiError && revert.error.status === 412;
  const confirm = () => {
    if (id === null || !preview.data) return;
    revert.mutate(
      { id, comment, serial: preview.data.serial_before },
      {
        onSuccess: ({ data }) => {
          toast('success', `Reverted change #${id}${data.id !== null ? ` (as change #${data.id})` : ''}`);
          close();
        },
        // The zone moved on since the preview: show the preview as it would be now.
        onError: (e) => {
          if (e instanceof ApiError && e.status === 412) void preview.refetch();
        },
      },
    );
  };

  return (
    <ConfirmDialog
      open={change !== null}
      title={`Revert change #${id ?? ''}?`}
      onCancel={close}
      onConfirm={confirm}
      confirmLabel="Confirm revert"
      pendingLabel="Reverting…"
      pending={revert.isPending}
      disabled={!preview.data || preview.isFetching}
      tone="primary"
      wide
    >
      <p>A revert applies the opposite of this change as a new change set, which you can revert in turn.</p>
      {preview.isPending ? (
        <LoadingState label="Working out what the revert would change…" />
      ) : preview.isError ? (
        <Refusal error={preview.error} title="This change cannot be reverted" />
      ) : (
        <section aria-label="What the revert would apply" className="revert-preview">
          <p className="strong">The revert would apply:</p>
          <ChangeDiff domain={domain} change={preview.data} label="the revert would apply" />
        </section>
      )}
      {stale ? (
        <Alert tone="warning" title="The zone changed while you looked">
          The preview above is up to date again; check it and confirm once more.
        </Alert>
      ) : revert.error ? (
        <Refusal error={revert.error} title="Could not revert" />
      ) : null}
      <TextField label="Comment (optional)" value={comment} maxLength={500} placeholder={`revert of change ${id ?? ''}`} onChange={(e) => setComment(e.target.value)} />
    </ConfirmDialog>
  );
}
