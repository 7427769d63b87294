/**
 * The scope of a credential (zones, names, types, allowed_ips, read_only), as the
 * API names each part: one fieldset for the API token and the TSIG key forms. `error` says what is
 * wrong with a part (the client's limit, or the server's 400 on that field).
 */
import type { ReactNode } from 'react';
import type { ScopeDraft } from '../lib/scope-text';
import { TextField } from './field';
import './scope-fields.css';

export type ScopePart = 'zones' | 'names' | 'types' | 'allowed_ips';

export function ScopeFields(props: {
  /** "token" or "key": the legend says what an empty scope leaves it. */
  what: string;
  scope: ScopeDraft;
  onChange(scope: ScopeDraft): void;
  error(part: ScopePart): string | undefined;
  /** What read-only means for this credential. */
  readOnlyText: ReactNode;
  /** Buttons beside the read-only box (e.g. "Limit to ACME challenges"). */
  actions?: ReactNode;
}) {
  const { scope, onChange, error } = props;
  const set = (k: keyof ScopeDraft) => (e: { target: { value: string } }) => onChange({ ...scope, [k]: e.target.value });
  const field = (label: string, k: Exclude<keyof ScopeDraft, 'readOnly'>, part: ScopePart, placeholder: string, hint: ReactNode, grow = true) => (
    <TextField label={label} name={part} value={scope[k]} onChange={set(k)} placeholder={placeholder} error={error(part)} hint={hint} className={grow ? 'grow' : undefined} autoComplete="off" />
  );
  return (
    <fieldset className="scope-fieldset">
      <legend>Scope (optional: leave empty for a {props.what} that may do everything you may)</legend>
      <div className="inline-form">
        {field(
          'Zones',
          'zones',
          'zones',
          'example.com',
          <>
            Only these zones (<code>zones</code>), comma-separated.
          </>,
        )}
        {field(
          'Record names',
          'names',
          'names',
          '_acme-challenge, _acme-challenge.*',
          <>
            Only these names (<code>names</code>), relative to the zone; “*” as the first or last label stands for one or more labels.
          </>,
        )}
        {field(
          'Record types',
          'types',
          'types',
          'TXT',
          <>
            Only these types (<code>types</code>).
          </>,
          false,
        )}
        {field(
          'Client networks',
          'allowedIps',
          'allowed_ips',
          '203.0.113.0/24',
          <>
            Only from these addresses or CIDR blocks (<code>allowed_ips</code>).
          </>,
        )}
      </div>
      <div className="form-actions">
        <label className="check">
          <input type="checkbox" name="read_only" checked={scope.readOnly} onChange={(e) => onChange({ ...scope, readOnly: e.target.checked })} /> Read-only (<code>read_only</code>):{' '}
          {props.readOnlyText}
        </label>
        {props.actions}
      </div>
    </fieldset>
  );
}
