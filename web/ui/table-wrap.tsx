/**
 * The frame of a wide table: it scrolls sideways on a narrow screen, so it is a named region
 * that takes keyboard focus, and keyboard users can scroll it with the arrow keys too.
 */
import type { ReactNode } from 'react';

export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
