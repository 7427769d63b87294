/**
 * The add form over the records table: open or closed, its draft, and the server's refusal of the
 * last add. A submit empties the form at once (keeping the type) for the next record; a refusal
 * opens it again with the draft as it was and the server's message on it.
 */
import { useRef, useState } from 'react';
import type { ApiError } from '../../lib/api-client';
import type { DnsRecord, Domain } from '../../lib/api-types';
import { useToast } from '../../ui/toast';
import { nextTempId, useCreateRecord } from './create-record';
import { asApiError, useCurrentError } from './form-error';
import { emptyDraft, optimisticRecord, type Checked, type Draft } from './record-draft';
import type { RecordFormProps } from './record-form';

export function useAddingRecord(domain: Domain, records: readonly DnsRecord[] | undefined) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => emptyDraft());
  const [error, setError] = useState<ApiError | null>(null);
  // A new key gives the add form a fresh start (no stale messages, focus on Name) after each submit.
  const [key, setKey] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const create = useCreateRecord(domain.name);
  const toast = useToast();
  const current = useCurrentError();

  const submit = (rec: NonNullable<Checked['record']>) => {
    const sent = draft;
    const comment = draft.comment.trim();
    const optimistic = optimisticRecord(nextTempId(), rec, domain, records ?? [], undefined, comment);
    setError(null);
    setDraft(emptyDraft(sent.type));
    setKey((k) => k + 1);
    create.mutate(
      { input: { name: sent.name.trim() || '@', record_type: rec.record_type, content: rec.content, ...(rec.ttl ? { ttl: rec.ttl } : {}), ...(comment ? { comment } : {}) }, optimistic },
      {
        onSuccess: (r) => toast('success', `Added ${r.fqdn} ${r.record_type}`),
        onError: (e) => {
          setOpen(true);
          setDraft(sent);
          setError(asApiError(e));
        },
      },
    );
  };

  const toggle = () => {
    setOpen((a) => !a);
    setError(null);
  };

  const form: Pick<RecordFormProps, 'draft' | 'onDraft' | 'serverError' | 'onSubmit' | 'onCancel'> = {
    draft,
    onDraft: (d) => {
      setDraft(d);
      setError(null);
    },
    serverError: current(error),
    onSubmit: submit,
    onCancel: () => {
      setOpen(false);
      // Escape (or Cancel) hands focus back to the button that opened the form, not to <body>.
      button.current?.focus();
    },
  };

  return { open, toggle, key, button, form };
}
