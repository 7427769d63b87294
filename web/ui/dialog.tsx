/** A modal on the native <dialog>: focus is trapped, Escape closes it, the page behind is inert. */
import { useEffect, useRef, type ReactNode } from 'react';
import './dialog.css';

export function Dialog({ open, onClose, title, children, wide = false }: { open: boolean; onClose: () => void; title: string; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby="dialog-title" onClose={onClose} onCancel={onClose}>
      {open ? (
        <>
          <h2 id="dialog-title">{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
