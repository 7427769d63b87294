/**
 * The part of the new-zone form for a secondary: where its records come from (its primaries, one
 * per line or comma-separated; the server checks and normalizes them) and the optional TSIG key
 * its transfers are signed with, picked from the user's keys. The server's refusals show under
 * each field.
 */
import { useId } from 'react';
import { ApiError } from '../../lib/api-client';
import { useTsigKeyNames } from '../../lib/tsig-key-names';
import { TextAreaField, TextField } from '../../ui/field';

export interface SecondaryDraft {
  primaries: string;
  tsigKey: string;
}

/** "192.0.2.1:53, [2001:db8::1]:53\n…" → one address a line, blanks dropped. */
export const splitPrimaries = (text: string) =>
  text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The server names a bad primary as `primaries` or `primaries.<index>`. */
export function primariesError(error: ApiError | null): string | undefined {
  if (!error) return undefined;
  const key = Object.keys(error.fields).find((k) => k === 'primaries' || k.startsWith('primaries.'));
  return key ? error.fields[key] : undefined;
}

interface Props {
  draft: SecondaryDraft;
  onChange: (draft: SecondaryDraft) => void;
  serverError: ApiError | null;
  /** Set when the form was sent with no primary at all. */
  missing?: string;
}

export function SecondaryFields({ draft, onChange, serverError, missing }: Props) {
  const keys = useTsigKeyNames();
  const listId = useId();
  return (
    <div className="secondary-fields">
      <TextAreaField
        label="Primaries"
        name="primaries"
        rows={2}
        spellCheck={false}
        placeholder={'192.0.2.1:53\n[2001:db8::1]:53'}
        value={draft.primaries}
        onChange={(e) => onChange({ ...draft, primaries: e.target.value })}
        error={missing ?? primariesError(serverError)}
        hint="The servers to copy the zone from, by IP address (the port defaults to 53): one per line or comma-separated, asked in this order."
      />
      <TextField
        label="TSIG key (optional)"
        name="tsig_key"
        list={listId}
        autoComplete="off"
        spellCheck={false}
        value={draft.tsigKey}
        onChange={(e) => onChange({ ...draft, tsigKey: e.target.value })}
        error={serverError?.field('tsig_key')}
        hint="One of your TSIG keys: transfers are signed with it, and the primaries' NOTIFYs must be."
      />
      <datalist id={listId}>
        {(keys.data ?? []).map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
    </div>
  );
}
