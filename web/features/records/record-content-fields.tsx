/**
 * The content of a record as its type's fields (from the record-type registry), one input each.
 * For A and AAAA it suggests the user's registered IPs and warns when an address lies outside
 * them or only in inactive ones; for TXT, when the value carries a zone file's quotes.
 */
import { useId, useMemo } from 'react';
import type { Ip } from '../../lib/api-types';
import { adviceHint, adviceText, ipAdvice, ipSuggestions } from '../../lib/ip-advice';
import { TextField } from '../../ui/field';
import { txtQuoteWarning, typeOf, type Draft } from './record-draft';

interface Props {
  draft: Draft;
  onDraft: (d: Draft) => void;
  ips: readonly Ip[] | undefined;
  /** The content's message (the client's check or the server's), shown once on the last input. */
  error: string | undefined;
}

export function RecordContentFields({ draft, onDraft, ips, error }: Props) {
  const listId = useId();
  const t = typeOf(draft.type);
  const isAddress = t.type === 'A' || t.type === 'AAAA';
  const advice = useMemo(() => (isAddress ? ipAdvice(draft.values[0] ?? '', ips, t.type as 'A' | 'AAAA') : null), [isAddress, draft.values, ips, t.type]);
  const suggestions = useMemo(() => (isAddress ? ipSuggestions(ips, t.type as 'A' | 'AAAA') : []), [isAddress, ips, t.type]);
  const setValue = (i: number, v: string) => onDraft({ ...draft, values: draft.values.map((x, j) => (j === i ? v : x)) });

  return (
    <>
      {t.fields.map((f, i) => (
        <TextField
          key={`${t.type}-${f.name}`}
          label={f.label}
          data-field={i === 0 ? 'content' : undefined}
          value={draft.values[i] ?? ''}
          autoComplete="off"
          spellCheck={false}
          placeholder={f.placeholder}
          list={isAddress && i === 0 && suggestions.length ? listId : undefined}
          onChange={(e) => setValue(i, e.target.value)}
          // One message for the whole content, on its last input, after the user has seen every part.
          error={i === t.fields.length - 1 ? error : undefined}
          warning={isAddress && advice ? adviceText(advice) : txtQuoteWarning(t.type, draft.values[i] ?? '')}
          hint={(isAddress && advice ? adviceHint(advice) : undefined) ?? f.hint}
          className={t.fields.length === 1 ? 'f-content' : `f-part f-${f.name}${f.wide ? ' f-wide' : ''}`}
        />
      ))}
      {isAddress && suggestions.length ? (
        <datalist id={listId}>
          {suggestions.map((s) => (
            <option key={s.value} value={s.value} label={s.label} />
          ))}
        </datalist>
      ) : null}
    </>
  );
}
