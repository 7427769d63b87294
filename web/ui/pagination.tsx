/** Previous/next paging from the totals the API sends in X-Total-Count, X-Page and X-Per-Page. */
import { useEffect } from 'react';
import { formatNumber } from '../lib/format';
import './pagination.css';

export function Pagination({ page, perPage, total, onPage, label = 'Pages' }: { page: number; perPage: number; total: number; onPage: (page: number) => void; label?: string }) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  // A page past the end (an old link, ?page=99, the last item of the last page deleted): go to the last one.
  useEffect(() => {
    if (page > pages) onPage(pages);
  }, [page, pages, onPage]);
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <nav className="pagination" aria-label={label}>
      <span className="muted" aria-live="polite">
        {total === 0 ? 'No items' : `${formatNumber(from)}–${formatNumber(to)} of ${formatNumber(total)}`}
      </span>
      <div className="pagination-buttons">
        <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          ← Previous
        </button>
        <span className="pagination-page">
          Page {page} of {pages}
        </span>
        <button type="button" className="btn btn-small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next →
        </button>
      </div>
    </nav>
  );
}
