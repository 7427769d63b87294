import type { ReactNode } from 'react';
import './badge.css';

export function Badge({ tone = 'neutral', children, title }: { tone?: 'neutral' | 'success' | 'warning' | 'info' | 'danger'; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}
