/**
 * The form for adding or editing one record, inline in the records table. Its fields and
 * hints come from the shared record-type registry (the content's in record-content-fields.tsx);
 * the client's checks show on the fields after the first submit, the server's refusal too.
 */
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { WRITABLE_TYPES } from '../../../server/core/record-types';
import type { ApiError } from '../../lib/api-client';
import type { DnsRecord, Domain, Ip } from '../../lib/api-types';
import { formatDuration } from '../../lib/format';
import { outageOf } from '../../lib/outage';
import { Alert } from '../../ui/alert';
import { SelectField, TextField } from '../../ui/field';
import { RecordContentFields } from './record-content-fields';
import { checkDraft, defaultTtl, MAX_COMMENT, typeOf, withType, type Checked, type Draft } from './record-draft';
import './records.css';

export interface RecordFormProps {
  domain: Domain;
  draft: Draft;
  onDraft: (d: Draft) => void;
  records: readonly DnsRecord[] | undefined;
  ips: readonly Ip[] | undefined;
  /** The record being edited; absent when adding. */
  editing?: DnsRecord;
  /** The server's refusal of the last attempt, shown on its fields. */
  serverError: ApiError | null;
  onSubmit: (rec: NonNullable<Checked['record']>) => void;
  onCancel: () => void;
  submitLabel: string;
}

export function RecordForm({ domain, draft, onDraft, records, ips, editing, serverError, onSubmit, onCancel, submitLabel }: RecordFormProps) {
  const [shown, setShown] = useState<Record<string, string>>({});
  const [checkedOnce, setCheckedOnce] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const typeErrorId = useId();
  const t = typeOf(draft.type);
  const ttlDefault = defaultTtl(draft, domain, records, editing?.id);

  // Client errors refresh as the user fixes them once a submit has shown them.
  const live = checkedOnce ? checkDraft(draft, domain).errors : shown;
  const err = (field: string) => live[field] ?? serverError?.field(field);
  const generalServerError = serverError && !['name', 'record_type', 'content', 'ttl', 'comment'].some((f) => serverError.field(f)) ? serverError.message : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkDraft(draft, domain);
    setShown(checked.errors);
    setCheckedOnce(true);
    if (!checked.record) {
      const first = ['name', 'record_type', 'content', 'ttl', 'comment'].find((f) => checked.errors[f]);
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    onSubmit(checked.record);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onCancel();
    }
  };

  return (
    <form ref={formRef} className="record-form" onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-label={editing ? `Edit ${editing.fqdn} ${editing.record_type}` : 'Add a record'}>
      <div className="record-form-fields">
        <TextField
          label="Name"
          data-field="name"
          value={draft.name}
          autoFocus
          autoComplete="off"
          spellCheck={false}
          placeholder="@ for the apex"
          onChange={(e) => onDraft({ ...draft, name: e.target.value })}
          error={err('name')}
          hint={`Relative to ${domain.name}; @ or empty is the apex, * a wildcard.`}
          className="f-name"
        />
        {/* The type column is narrow: its message (often a long RFC rule) gets its own line below. */}
        <SelectField
          label="Type"
          data-field="record_type"
          value={draft.type}
          onChange={(e) => onDraft(withType(draft, e.target.value))}
          aria-invalid={err('record_type') ? true : undefined}
          aria-describedby={err('record_type') ? typeErrorId : undefined}
          hint={t.description}
          className={`f-type${err('record_type') ? ' field-invalid' : ''}`}
        >
          {WRITABLE_TYPES.map((rt) => (
            <option key={rt.type} value={rt.type}>
              {rt.type}
            </option>
          ))}
        </SelectField>
        <RecordContentFields draft={draft} onDraft={onDraft} ips={ips} error={err('content')} />
        <TextField
          label="TTL (seconds)"
          data-field="ttl"
          inputMode="numeric"
          value={draft.ttl}
          placeholder={`${ttlDefault}`}
          onChange={(e) => onDraft({ ...draft, ttl: e.target.value })}
          error={err('ttl')}
          hint={draft.ttl.trim() ? `${formatDuration(Number(draft.ttl))}; applies to every ${t.type} record at this name.` : `Empty keeps ${formatDuration(Number(ttlDefault))}.`}
          className="f-ttl"
        />
        <TextField
          label="Comment"
          data-field="comment"
          value={draft.comment}
          maxLength={MAX_COMMENT}
          autoComplete="off"
          placeholder="Optional: why this record is here"
          onChange={(e) => onDraft({ ...draft, comment: e.target.value })}
          error={err('comment')}
          hint={`Shared by every ${t.type} record at this name, as PowerDNS keeps it; not served. Empty removes it.`}
          className="f-comment"
        />
        {err('record_type') ? (
          <p className="field-error span-all" id={typeErrorId}>
            Type: {err('record_type')}
          </p>
        ) : null}
      </div>
      {/* The database away or the disk full refuses no record: the same draft saves once the service answers again. */}
      {generalServerError ? <Alert title={outageOf(serverError) ? 'Not saved' : 'The server refused this record'}>{generalServerError}</Alert> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary">
          {submitLabel}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <span className="muted small">Enter saves, Escape cancels.</span>
      </div>
    </form>
  );
}
