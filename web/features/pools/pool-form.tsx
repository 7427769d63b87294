/**
 * A new pool, or changes to one: name, type, TTL, policy and fallback, the members, and the check.
 * The client checks only that numbers are numbers; the server's 400 names each field it refuses
 * (`members[1].address`, `check.interval_s`) and the message shows beside that field. The name and
 * type of an existing pool cannot change (its records are that name and type).
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import type { Pool, PoolFallback, PoolPolicy } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { SelectField, TextField } from '../../ui/field';
import { CheckFields } from './check-fields';
import { MemberRows } from './member-rows';
import { draftOfPool, fieldMessage, newPoolDraft, poolBody, type FieldErrors } from './pool-draft';
import { FALLBACK_WORDS, POLICY_WORDS } from './pool-words';
import { useSavePool } from './save-pool';
import './pools.css';

/** The fields this form shows; a server message on any other goes into the box under the form. */
const SHOWN = /^(name|type|ttl|policy|fallback|members(\[\d+\]\.(address|priority|weight))?|check\.(kind|port|path|host|expect_status|expect_body|interval_s|timeout_ms|failures|successes))$/;
const canonical = (field: string) => field.replace(/\.(\d+)(?=\.|$)/g, '[$1]').replace(/^check\.expect_status\[\d+\]$/, 'check.expect_status');

interface Props {
  zone: string;
  /** The pool to change; none for a new one. */
  pool?: Pool;
  onSaved(pool: Pool): void;
  onCancel(): void;
}

export function PoolForm({ zone, pool, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState(() => (pool ? draftOfPool(pool) : newPoolDraft()));
  const [submitted, setSubmitted] = useState(false);
  const save = useSavePool(zone);
  const { body, errors } = poolBody(draft);
  const server: FieldErrors = {};
  if (save.error instanceof ApiError) for (const [k, v] of Object.entries(save.error.fields)) server[canonical(k)] = v;
  const error = (field: string) => (submitted ? errors[field] : undefined) ?? fieldMessage(server, field);
  const unshown = Object.entries(server).filter(([k]) => !SHOWN.test(k));
  const editing = pool !== undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    save.mutate({ id: pool?.id, body }, { onSuccess: onSaved });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={editing ? `Change pool ${pool.name}` : 'New pool'} className="pool-form">
      <div className="inline-form">
        <TextField
          label="Name"
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          disabled={editing}
          placeholder="www"
          autoComplete="off"
          spellCheck={false}
          className="grow mono-input"
          hint={editing ? 'A pool keeps its name and type.' : `Relative to ${zone}; “@” for the zone itself. Its ${draft.type} records become the pool's answer.`}
          error={error('name')}
        />
        <SelectField label="Type" value={draft.type} disabled={editing} onChange={(e) => setDraft({ ...draft, type: e.target.value as 'A' | 'AAAA' })} error={error('type')}>
          <option value="A">A (IPv4)</option>
          <option value="AAAA">AAAA (IPv6)</option>
        </SelectField>
        <TextField
          label="TTL (s)"
          value={draft.ttl}
          inputMode="numeric"
          onChange={(e) => setDraft({ ...draft, ttl: e.target.value })}
          className="pool-num"
          hint="Short, so resolvers follow a change soon."
          error={error('ttl')}
        />
      </div>
      <div className="inline-form">
        <SelectField
          label="Policy"
          value={draft.policy}
          onChange={(e) => setDraft({ ...draft, policy: e.target.value as PoolPolicy })}
          hint={POLICY_WORDS[draft.policy].help}
          className="grow"
          error={error('policy')}
        >
          {(Object.keys(POLICY_WORDS) as PoolPolicy[]).map((p) => (
            <option key={p} value={p}>
              {POLICY_WORDS[p].label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="When no member is up"
          value={draft.fallback}
          onChange={(e) => setDraft({ ...draft, fallback: e.target.value as PoolFallback })}
          hint={FALLBACK_WORDS[draft.fallback].help}
          className="grow"
          error={error('fallback')}
        >
          {(Object.keys(FALLBACK_WORDS) as PoolFallback[]).map((f) => (
            <option key={f} value={f}>
              {FALLBACK_WORDS[f].label}
            </option>
          ))}
        </SelectField>
      </div>
      <MemberRows members={draft.members} type={draft.type} onChange={(members) => setDraft({ ...draft, members })} error={error} />
      <CheckFields check={draft.check} onChange={(check) => setDraft({ ...draft, check })} error={error} />
      {save.error && (!(save.error instanceof ApiError) || Object.keys(server).length === 0 || unshown.length > 0) ? (
        <Alert title={editing ? 'Could not save the pool' : 'Could not create the pool'}>{unshown.length > 0 ? unshown.map(([k, v]) => <p key={k}>{`${k} ${v}`}</p>) : save.error.message}</Alert>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : editing ? 'Save pool' : 'Create pool'}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
