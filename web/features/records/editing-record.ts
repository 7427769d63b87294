/**
 * The record being edited in place: its draft, and the server's refusal of the last save, which
 * brings the row's form back with the draft as the user left it. Closing the form hands keyboard
 * focus back to the row's Edit button.
 */
import { useCallback, useState } from 'react';
import type { ApiError } from '../../lib/api-client';
import type { DnsRecord, Domain } from '../../lib/api-types';
import { isStale } from '../../lib/zone-serial';
import { useToast } from '../../ui/toast';
import { asApiError, useCurrentError } from './form-error';
import { changesOf, draftOf, emptyDraft, optimisticRecord, type Checked, type Draft } from './record-draft';
import type { RecordFormProps } from './record-form';
import type { RecordUpdater } from './update-record';

/** After the inline editor closes, keyboard focus goes back to the row's Edit button. */
function focusEditButton(r: DnsRecord): void {
  requestAnimationFrame(() => document.querySelector<HTMLButtonElement>(`button[aria-label="${CSS.escape(`Edit ${r.fqdn} ${r.record_type}`)}"]`)?.focus());
}

type EditorProps = Pick<RecordFormProps, 'draft' | 'onDraft' | 'editing' | 'serverError' | 'onSubmit' | 'onCancel'>;

/** `disarm` takes back a pending "Confirm delete" when an edit starts. */
export function useEditingRecord(domain: Domain, records: readonly DnsRecord[] | undefined, update: RecordUpdater, disarm: () => void) {
  const [editingId, setEditingId] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft>(() => emptyDraft());
  const [error, setError] = useState<ApiError | null>(null);
  const toast = useToast();
  const current = useCurrentError();

  const startEdit = useCallback(
    (r: DnsRecord) => {
      disarm();
      setError(null);
      setDraft(draftOf(r));
      setEditingId(r.id);
    },
    [disarm],
  );

  const submit = (before: DnsRecord) => (rec: NonNullable<Checked['record']>) => {
    const saved = draft;
    const optimistic = optimisticRecord(before.id, rec, domain, records ?? [], before, saved.comment.trim());
    const patch = changesOf(before, rec, saved);
    setEditingId(null);
    focusEditButton(optimistic);
    if (Object.keys(patch).length === 0) return;
    update.mutate(
      { before, patch, optimistic },
      {
        onSuccess: (r) => toast('success', `Saved ${r.fqdn} ${r.record_type}`),
        onError: (e) => {
          setDraft(saved);
          setError(asApiError(e));
          setEditingId(before.id);
          if (!isStale(e)) toast('error', `Could not save ${before.fqdn}: ${e.message}`);
        },
      },
    );
  };

  /** The inline form's props for the row of `r`. */
  const editorOf = (r: DnsRecord): EditorProps => ({
    draft,
    onDraft: (d) => {
      setDraft(d);
      setError(null);
    },
    editing: r,
    serverError: current(error),
    onSubmit: submit(r),
    onCancel: () => {
      setEditingId(null);
      focusEditButton(r);
    },
  });

  return { editingId, startEdit, editorOf };
}
