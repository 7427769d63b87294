import type { ReactNode } from 'react';
import './alert.css';

/** A message box; `error` is announced at once (role=alert). */
export function Alert({ tone = 'error', title, children }: { tone?: 'error' | 'warning' | 'info' | 'success'; title?: string; children?: ReactNode }) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title ? <strong className="alert-title">{title}</strong> : null}
      {children ? <div>{children}</div> : null}
    </div>
  );
}
