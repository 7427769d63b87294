/**
 * The zone's SOA timers with their bounds shown. The same rules as the server (core's
 * soaErrors) check the fields on save, and live from then on; whatever the server still
 * rejects appears on its field. (Not on blur: a message appearing under a field moves the
 * Save button away from the pointer that is about to click it.)
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { SOA_BOUNDS, SOA_FIELDS, soaErrors, type SoaField } from '../../../server/core/soa';
import { ApiError } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { formatDuration, formatNumber } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { useUpdateDomain } from './update-domain';
import './domains.css';

type Values = Record<SoaField, string>;

const fromDomain = (d: Domain): Values => Object.fromEntries(SOA_FIELDS.map((f) => [f, String(d[f])])) as Values;

const HELP: Record<SoaField, string> = {
  refresh_interval: 'How often secondaries check for a new serial',
  retry_interval: 'How soon a secondary retries after a failed refresh',
  expire_interval: 'How long a secondary keeps answering without reaching us',
  minimum_ttl: 'TTL of negative answers, and the default TTL of new records',
};

export function SoaForm({ domain }: { domain: Domain }) {
  const [values, setValues] = useState<Values>(() => fromDomain(domain));
  const [touched, setTouched] = useState<Set<SoaField>>(new Set());
  const [sent, setSent] = useState<Values | null>(null);
  const update = useUpdateDomain(domain.name);
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const saved = useMemo(() => fromDomain(domain), [domain]);
  const changed = useMemo(() => new Set(SOA_FIELDS.filter((f) => values[f].trim() !== saved[f])), [values, saved]);

  // A newer zone from the server (a reload after a conflict, another tab) replaces every field
  // the user has not changed, so saving afterwards sends only their own edits back.
  const lastSaved = useRef(saved);
  useEffect(() => {
    const prev = lastSaved.current;
    if (prev === saved) return;
    lastSaved.current = saved;
    setValues((v) => Object.fromEntries(SOA_FIELDS.map((f) => [f, v[f].trim() === prev[f] ? saved[f] : v[f]])) as Values);
  }, [saved]);

  const local = useMemo(() => {
    const errors: Partial<Record<SoaField, string>> = {};
    const nums = {} as Record<SoaField, number>;
    for (const f of SOA_FIELDS) {
      const v = values[f].trim();
      if (!/^[0-9]{1,10}$/.test(v)) errors[f] = v === '' ? 'is required' : 'must be a whole number of seconds';
      nums[f] = Number(v);
    }
    return { ...soaErrors(nums, changed), ...errors };
  }, [values, changed]);

  const server = update.error instanceof ApiError && sent && SOA_FIELDS.every((f) => sent[f] === values[f]) ? update.error : null;
  const errorOf = (f: SoaField) => (touched.has(f) ? local[f] : undefined) ?? server?.field(f);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(new Set(SOA_FIELDS));
    const bad = SOA_FIELDS.find((f) => local[f]);
    if (bad) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${bad}"]`)?.focus();
      return;
    }
    const patch = Object.fromEntries([...changed].map((f) => [f, Number(values[f])]));
    setSent(values);
    update.mutate(patch, {
      onSuccess: () => {
        setTouched(new Set());
        toast('success', 'Zone settings saved');
      },
    });
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="SOA settings">
      <div className="soa-grid">
        {SOA_FIELDS.map((f) => {
          const { min, max, label } = SOA_BOUNDS[f];
          const n = Number(values[f]);
          return (
            <TextField
              key={f}
              name={f}
              label={`${label} (seconds)`}
              inputMode="numeric"
              value={values[f]}
              onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
              error={errorOf(f)}
              hint={
                <>
                  {values[f].trim() && Number.isFinite(n) ? <span className="strong">{formatDuration(n)}. </span> : null}
                  {HELP[f]}. Allowed: {formatNumber(min)}–{formatNumber(max)} ({formatDuration(min)} – {formatDuration(max)}).
                </>
              }
            />
          );
        })}
      </div>
      {server && Object.keys(server.fields).length === 0 ? <Alert title="Could not save">{server.message}</Alert> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={changed.size === 0 || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save settings'}
        </button>
        <button
          type="button"
          className="btn"
          disabled={changed.size === 0 || update.isPending}
          onClick={() => {
            setValues(saved);
            setTouched(new Set());
          }}
        >
          Discard changes
        </button>
      </div>
    </form>
  );
}
