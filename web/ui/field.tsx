/**
 * Labelled form controls: every input has a visible label, an optional hint, and the
 * error for its field (from the client's checks or the server's `fields`), wired with
 * aria-describedby / aria-invalid so a screen reader reads them too.
 */
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import './field.css';

interface FieldFrame {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** Non-blocking advice shown in the warning colour. */
  warning?: string;
  className?: string;
}

/** Rule messages read "must be …" so they can follow a field name; alone they start a sentence. */
const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function Frame({ id, label, hint, error, warning, className, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {sentence(error)}
        </p>
      ) : warning ? (
        <p className="field-warning" id={`${id}-warning`} role="status">
          {warning}
        </p>
      ) : null}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, f: FieldFrame, extra?: string): string | undefined {
  const ids = [extra, f.error ? `${id}-error` : f.warning ? `${id}-warning` : null, f.hint ? `${id}-hint` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function TextField({ label, hint, error, warning, className, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const id = input.id ?? auto;
  const f = { label, hint, error, warning, className };
  return (
    <Frame id={id} {...f}>
      <input {...input} id={id} aria-invalid={error ? true : input['aria-invalid']} aria-describedby={describedBy(id, f, input['aria-describedby'])} />
    </Frame>
  );
}

export function TextAreaField({ label, hint, error, warning, className, ...area }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const id = area.id ?? auto;
  const f = { label, hint, error, warning, className };
  return (
    <Frame id={id} {...f}>
      <textarea {...area} id={id} aria-invalid={error ? true : area['aria-invalid']} aria-describedby={describedBy(id, f, area['aria-describedby'])} />
    </Frame>
  );
}

export function SelectField({ label, hint, error, warning, className, children, ...select }: FieldFrame & SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const id = select.id ?? auto;
  const f = { label, hint, error, warning, className };
  return (
    <Frame id={id} {...f}>
      <select {...select} id={id} aria-invalid={error ? true : select['aria-invalid']} aria-describedby={describedBy(id, f, select['aria-describedby'])}>
        {children}
      </select>
    </Frame>
  );
}
