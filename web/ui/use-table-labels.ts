/**
 * On a phone every `table` of the dashboard is shown as a stack of cards (tables.css), where a
 * cell no longer sits under its column's header: each cell gets its header's text as `data-label`,
 * which the sheet shows above the value. One watcher for the whole main column, so every table,
 * present and future, is labelled without each one doing it.
 */
import { useEffect, type RefObject } from 'react';

function label(root: HTMLElement): void {
  for (const table of root.querySelectorAll<HTMLTableElement>('table.table')) {
    const heads = [...table.querySelectorAll<HTMLTableCellElement>('thead th')].map((th) => {
      // A header only screen readers hear (Actions) labels nothing on screen either.
      const shown = th.querySelector('.visually-hidden') ? '' : (th.textContent ?? '').trim();
      return { shown, span: th.colSpan };
    });
    for (const row of table.querySelectorAll<HTMLTableRowElement>('tbody tr')) {
      let col = 0;
      let head = 0;
      let headEnd = heads[0]?.span ?? 1;
      for (const cell of row.cells) {
        while (col >= headEnd && head < heads.length - 1) headEnd += heads[++head]!.span;
        const text = cell.colSpan > 1 ? '' : (heads[head]?.shown ?? '');
        if ((cell.dataset.label ?? '') !== text) {
          if (text) cell.dataset.label = text;
          else delete cell.dataset.label;
        }
        col += cell.colSpan;
      }
    }
  }
}

export function useTableLabels(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    label(el);
    // Rows come and go (pages, filters, loading): childList only, so setting labels does not loop.
    const seen = new MutationObserver(() => label(el));
    seen.observe(el, { childList: true, subtree: true });
    return () => seen.disconnect();
  }, [root]);
}
