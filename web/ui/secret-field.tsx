/**
 * A secret shown once (an API token, a TSIG key, a webhook's signing secret, a one-time password):
 * a read-only box that selects itself on focus, so it can be copied by hand too, with Copy beside it.
 */
import { useRef, type ReactNode } from 'react';
import { CopyButton } from './copy-button';
import './new-secret.css';

export function SecretField({ id, label, value, copyLabel, hint }: { id: string; label: ReactNode; value: string; copyLabel: string; hint?: ReactNode }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input id={id} ref={input} className="mono grow" readOnly value={value} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={value} label={copyLabel} fallbackInput={input} />
      </div>
      {hint ? <p className="field-hint">{hint}</p> : null}
    </div>
  );
}
