/** A labelled set of radio buttons, each choice with a line saying what it means. */
import type { ReactNode } from 'react';

export interface Choice<T extends string> {
  value: T;
  label: string;
  help: ReactNode;
}

export function ChoiceGroup<T extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
  error,
}: {
  legend: string;
  name: string;
  choices: Choice<T>[];
  value: T;
  onChange: (v: T) => void;
  error?: string;
}) {
  return (
    <fieldset className="choice-group" aria-describedby={error ? `${name}-error` : undefined}>
      <legend>{legend}</legend>
      {choices.map((c) => (
        <label key={c.value} className="choice">
          <input type="radio" name={name} value={c.value} checked={value === c.value} onChange={() => onChange(c.value)} />
          <span>
            <span className="strong">{c.label}</span>
            <span className="muted small choice-help">{c.help}</span>
          </span>
        </label>
      ))}
      {error ? (
        <p className="field-error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
