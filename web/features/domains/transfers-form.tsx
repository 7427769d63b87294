/**
 * The zone's own transfers, beside the service's SECONDARIES and AXFR_ALLOW: the secondaries
 * NOTIFY also goes to, the networks that may transfer the zone, and the TSIG key both are signed
 * with. One entry per line; the same rules as the server (core/zone-transfers.ts) check the lists
 * on save, and whatever the server still refuses appears under the field it names.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { canonicalAllowTransfer, canonicalAlsoNotify } from '../../../server/core/zone-transfers';
import { ApiError } from '../../lib/api-client';
import type { Domain, DomainUpdate } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { TextAreaField, TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { useUpdateDomain } from './update-domain';
import './domains.css';

const FIELDS = ['also_notify', 'allow_transfer', 'transfer_tsig_key'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

/** The two list fields, one entry a line. */
const LISTS = [
  {
    field: 'also_notify',
    label: 'Also notify',
    placeholder: '192.0.2.1:53',
    hint: "Secondaries told of every new serial (NOTIFY), besides the service's own: one IP address and port a line, such as 192.0.2.1:53 or [2001:db8::1]:53.",
  },
  {
    field: 'allow_transfer',
    label: 'Allow transfers from',
    placeholder: '192.0.2.0/24',
    hint: "Networks that may transfer this zone (AXFR/IXFR), besides the service's own: one address or CIDR block a line.",
  },
] as const;

const fromDomain = (d: Domain): Values => ({
  also_notify: d.also_notify.join('\n'),
  allow_transfer: d.allow_transfer.join('\n'),
  transfer_tsig_key: d.transfer_tsig_key ?? '',
});

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** The rule of a list field, as the server applies it: its message, or null. */
function listError(rule: (list: string[]) => string[], text: string): string | undefined {
  try {
    rule(lines(text));
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export function TransfersForm({ domain }: { domain: Domain }) {
  const saved = useMemo(() => fromDomain(domain), [domain]);
  const [values, setValues] = useState<Values>(saved);
  const [checked, setChecked] = useState(false);
  const [sent, setSent] = useState<Values | null>(null);
  const update = useUpdateDomain(domain.name);
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const changed = FIELDS.filter((f) => values[f].trim() !== saved[f]);

  // A newer zone from the server replaces every field the user has not changed.
  const lastSaved = useRef(saved);
  useEffect(() => {
    const prev = lastSaved.current;
    if (prev === saved) return;
    lastSaved.current = saved;
    setValues((v) => Object.fromEntries(FIELDS.map((f) => [f, v[f].trim() === prev[f] ? saved[f] : v[f]])) as Values);
  }, [saved]);

  const local: Partial<Record<Field, string>> = {
    also_notify: listError(canonicalAlsoNotify, values.also_notify),
    allow_transfer: listError(canonicalAllowTransfer, values.allow_transfer),
  };
  const server = update.error instanceof ApiError && sent && FIELDS.every((f) => sent[f] === values[f]) ? update.error : null;
  // The server names a list's field, or one entry of it (`also_notify.2`).
  const serverError = (f: Field) => server?.field(f) ?? Object.entries(server?.fields ?? {}).find(([k]) => k.startsWith(`${f}.`))?.[1];
  const errorOf = (f: Field) => (checked ? local[f] : undefined) ?? serverError(f);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    const bad = FIELDS.find((f) => local[f]);
    if (bad) {
      formRef.current?.querySelector<HTMLElement>(`[name="${bad}"]`)?.focus();
      return;
    }
    const patch: DomainUpdate = {};
    if (changed.includes('also_notify')) patch.also_notify = lines(values.also_notify);
    if (changed.includes('allow_transfer')) patch.allow_transfer = lines(values.allow_transfer);
    if (changed.includes('transfer_tsig_key')) patch.transfer_tsig_key = values.transfer_tsig_key.trim() || null;
    setSent(values);
    update.mutate(patch, {
      onSuccess: () => {
        setChecked(false);
        toast('success', 'Transfer settings saved');
      },
    });
  };

  const set = (f: Field) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [f]: e.target.value }));
  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Transfers">
      <div className="transfers-fields">
        {LISTS.map((l) => (
          <TextAreaField key={l.field} name={l.field} label={l.label} rows={3} value={values[l.field]} onChange={set(l.field)} error={errorOf(l.field)} placeholder={l.placeholder} hint={l.hint} />
        ))}
        <TextField
          name="transfer_tsig_key"
          label="Transfer key"
          value={values.transfer_tsig_key}
          onChange={set('transfer_tsig_key')}
          error={errorOf('transfer_tsig_key')}
          autoComplete="off"
          spellCheck={false}
          hint="The name of one of your TSIG keys: transfers from the networks above must be signed with it, and NOTIFY to the secondaries above is. Empty: none."
        />
      </div>
      {server && Object.keys(server.fields).length === 0 ? <Alert title="Could not save">{server.message}</Alert> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={changed.length === 0 || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save transfers'}
        </button>
        <button
          type="button"
          className="btn"
          disabled={changed.length === 0 || update.isPending}
          onClick={() => {
            setValues(saved);
            setChecked(false);
          }}
        >
          Discard changes
        </button>
      </div>
    </form>
  );
}
