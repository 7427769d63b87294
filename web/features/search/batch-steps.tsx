/**
 * The steps of a change across zones after its preview, alike for a bulk change from a search and
 * for a template applied to zones: the button that applies the batch, and what follows — the
 * error of a step, the preview per zone, then what was applied with "Revert this batch".
 */
import { ApiError } from '../../lib/api-client';
import type { BatchResult } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { useToast } from '../../ui/toast';
import { BatchPreview } from './batch-preview';
import { useRevertBatch } from './search-records';

/** An API error as one line: its message and each field's reason, once each. */
export const errorText = (e: unknown) =>
  e instanceof ApiError ? [e.message, ...Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`)].filter((x, i, a) => a.indexOf(x) === i).join(' · ') : e instanceof Error ? e.message : '';

/** "Apply to N zones", once there is a preview. */
export function ApplyBatchButton({ preview, pending, onApply }: { preview: BatchResult | null; pending: boolean; onApply: () => void }) {
  if (!preview) return null;
  return (
    <button type="button" className="btn btn-primary" disabled={pending} onClick={onApply}>
      Apply to {preview.zones.length} {preview.zones.length === 1 ? 'zone' : 'zones'}
    </button>
  );
}

/** The error of the preview or apply, the preview, and the batch applied with its revert (`onReverted` when it is undone). */
export function BatchOutcome({ error, preview, done, onReverted }: { error: unknown; preview: BatchResult | null; done: BatchResult | null; onReverted: () => void }) {
  const revert = useRevertBatch();
  const toast = useToast();
  return (
    <>
      {error ? <Alert>{errorText(error)}</Alert> : null}
      {preview ? <BatchPreview result={preview} label="Preview" /> : null}
      {done ? (
        <>
          <BatchPreview result={done} label="Applied" />
          {done.batch ? (
            <button
              type="button"
              className="btn"
              disabled={revert.isPending}
              onClick={() =>
                revert.mutate(done.batch!, {
                  onSuccess: () => {
                    toast('success', 'Reverted the batch');
                    onReverted();
                  },
                })
              }
            >
              Revert this batch
            </button>
          ) : null}
          {revert.error ? <Alert>{errorText(revert.error)}</Alert> : null}
        </>
      ) : null}
    </>
  );
}
