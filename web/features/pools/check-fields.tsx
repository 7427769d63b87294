/**
 * How each member is checked: a TCP connect, or an HTTP(S) request whose status must fall in a
 * range (and whose body may have to contain a text), every so many seconds; so many failures in a
 * row take a member down, so many successes bring it back. HTTP-only fields hide for TCP.
 */
import type { CheckKind } from '../../lib/api-types';
import { SelectField, TextField } from '../../ui/field';
import { DEFAULT_PORT, type CheckDraft } from './pool-draft';
import { KIND_WORDS, plural } from './pool-words';

interface Props {
  check: CheckDraft;
  onChange(check: CheckDraft): void;
  error(field: string): string | undefined;
}

export function CheckFields({ check, onChange, error }: Props) {
  const set = (part: Partial<CheckDraft>) => onChange({ ...check, ...part });
  const text = (k: keyof CheckDraft) => (e: { target: { value: string } }) => set({ [k]: e.target.value });
  const web = check.kind !== 'tcp';
  const kind = (next: CheckKind) => set({ kind: next, port: check.port === DEFAULT_PORT[check.kind] || check.port === '' ? DEFAULT_PORT[next] : check.port });
  return (
    <fieldset className="pool-fieldset">
      <legend>Health check</legend>
      <div className="inline-form">
        <SelectField label="Check" value={check.kind} onChange={(e) => kind(e.target.value as CheckKind)} error={error('check.kind')}>
          {(Object.keys(KIND_WORDS) as CheckKind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </SelectField>
        <TextField label="Port" value={check.port} inputMode="numeric" onChange={text('port')} className="pool-num" error={error('check.port')} />
        {web ? (
          <>
            <TextField label="Path" value={check.path} onChange={text('path')} placeholder="/" className="grow mono-input" spellCheck={false} error={error('check.path')} />
            <TextField
              label="Host header"
              value={check.host}
              onChange={text('host')}
              placeholder="www.example.com"
              hint="Empty: the pool's name."
              className="grow mono-input"
              spellCheck={false}
              error={error('check.host')}
            />
          </>
        ) : null}
      </div>
      {web ? (
        <div className="inline-form">
          <TextField label="Status from" value={check.statusFrom} inputMode="numeric" onChange={text('statusFrom')} className="pool-num" error={error('check.expect_status')} />
          <TextField label="Status to" value={check.statusTo} inputMode="numeric" onChange={text('statusTo')} className="pool-num" hint="Any status in this range passes." />
          <TextField
            label="Body contains"
            value={check.expectBody}
            onChange={text('expectBody')}
            placeholder="optional"
            hint="Only the first 64 KiB are read."
            className="grow"
            error={error('check.expect_body')}
          />
          {check.kind === 'https' ? (
            <label className="check">
              <input type="checkbox" checked={check.tlsVerify} onChange={(e) => set({ tlsVerify: e.target.checked })} /> Verify the TLS certificate
            </label>
          ) : null}
        </div>
      ) : null}
      {check.kind === 'https' && !check.tlsVerify ? <p className="field-warning">Without verification, anything answering on that address passes the check.</p> : null}
      <div className="inline-form">
        <TextField label="Every (s)" value={check.interval} inputMode="numeric" onChange={text('interval')} className="pool-num" error={error('check.interval_s')} />
        <TextField label="Timeout (ms)" value={check.timeout} inputMode="numeric" onChange={text('timeout')} className="pool-num" error={error('check.timeout_ms')} />
        <TextField label="Failures to go down" value={check.failures} inputMode="numeric" onChange={text('failures')} className="pool-num" error={error('check.failures')} />
        <TextField label="Successes to come up" value={check.successes} inputMode="numeric" onChange={text('successes')} className="pool-num" error={error('check.successes')} />
      </div>
      <p className="field-hint">
        A member goes down after {plural(check.failures, 'failed check')} in a row ({Number(check.failures) * Number(check.interval) || '…'} s at the earliest) and comes back after{' '}
        {plural(check.successes, 'good one')}. Every zonedeck node checks; a member&apos;s state is what most of them saw.
      </p>
    </fieldset>
  );
}
