/** The three states every data view has besides "here is the data". */
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api-client';
import './states.css';

/** A spinner named `label` for assistive technology; with an empty label, decoration only (the text beside it says what loads). */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  if (!label) return <span className="spinner" aria-hidden="true" />;
  return <span className="spinner" role="img" aria-label={label} />;
}

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <Spinner label="" />
      <span>{label}</span>
    </div>
  );
}

export function ErrorState({ error, retry, title = 'Something went wrong' }: { error: unknown; retry?: () => void; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  return (
    <div className="state state-error" role="alert">
      <strong>{title}</strong>
      <p>{message}</p>
      {requestId ? <p className="muted small">Request id: {requestId}</p> : null}
      {retry ? (
        <button type="button" className="btn" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <strong>{title}</strong>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}
