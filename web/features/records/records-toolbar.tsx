/** The filters over the records table (name and type) and how many records they leave. */
import { WRITABLE_TYPES } from '../../../server/core/record-types';
import { formatNumber } from '../../lib/format';
import { SelectField, TextField } from '../../ui/field';
import type { RecordFilters } from './shown-records';

/** `total` is undefined while the records load: no count is shown then. */
export function RecordsToolbar({ filters, shown, total }: { filters: RecordFilters; shown: number; total: number | undefined }) {
  return (
    <form className="toolbar" role="search" aria-label="Filter records" onSubmit={(e) => e.preventDefault()}>
      <TextField label="Filter by name" type="search" value={filters.name} placeholder="www, _dmarc, @" spellCheck={false} onChange={(e) => filters.set('name', e.target.value)} className="grow" />
      <SelectField label="Type" value={filters.type} onChange={(e) => filters.set('type', e.target.value)}>
        <option value="">All types</option>
        {WRITABLE_TYPES.map((t) => (
          <option key={t.type} value={t.type}>
            {t.type}
          </option>
        ))}
      </SelectField>
      {total !== undefined ? (
        <p className="toolbar-note muted" aria-live="polite" data-testid="records-count">
          {shown === total ? `${formatNumber(total)} records` : `${formatNumber(shown)} of ${formatNumber(total)} records`}
        </p>
      ) : null}
    </form>
  );
}
