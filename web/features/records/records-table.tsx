/**
 * The records of a zone as a virtualized table: only the rows in view are in the DOM, so
 * 10,000 records scroll and filter smoothly. The page itself scrolls the list (no box scrolling
 * inside the page, which on a phone traps the finger and hides the row editor below its edge). A row turns into the record form to edit it
 * in place; deleting asks for a second click on the same row. A checkbox per row (and one
 * for all shown rows) chooses records to delete together. A disabled record (kept, not served)
 * is greyed, says so, and has Enable where a served one has Disable.
 */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Fragment, memo, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { DnsRecord, Domain, Ip } from '../../lib/api-types';
import { formatDuration } from '../../lib/format';
import { Link } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { adviceText, ipAdvice } from '../../lib/ip-advice';
import type { Sort, SortKey } from './record-order';
import { isManaged, isSelectable, type SelectAll } from './record-selection';
import './records.css';

const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'name', label: 'Name' },
  { key: 'record_type', label: 'Type' },
  { key: 'content', label: 'Content' },
  { key: 'ttl', label: 'TTL' },
];

/** A DNS name with a chance to wrap after each dot, so a long name breaks between its labels. */
function Labels({ name }: { name: string }) {
  return name.split('.').map((label, i) => (
    <Fragment key={i}>
      {i > 0 ? (
        <>
          .<wbr />
        </>
      ) : null}
      {label}
    </Fragment>
  ));
}

interface RowProps {
  r: DnsRecord;
  domain: string;
  ips: readonly Ip[] | undefined;
  pending: boolean;
  armed: boolean;
  selected: boolean;
  onEdit: (r: DnsRecord) => void;
  onArm: (id: number | null) => void;
  onDelete: (r: DnsRecord) => void;
  onToggle: (r: DnsRecord) => void;
  onSelect: (id: number, on: boolean) => void;
  readOnly: boolean;
  /** The health-checked pool that answers this record's set (its id), if one does: the pool alone changes it. */
  pool: number | undefined;
}

const RecordRow = memo(function RecordRow({ r, domain, ips, pending, armed, selected, onEdit, onArm, onDelete, onToggle, onSelect, readOnly, pool }: RowProps) {
  const advice = r.record_type === 'A' || r.record_type === 'AAAA' ? adviceText(ipAdvice(r.content, ips, r.record_type)) : undefined;
  const label = `${r.fqdn} ${r.record_type}`;
  return (
    <>
      <div role="cell" className="c-select">
        {isManaged(r) || readOnly || pool !== undefined ? null : (
          <input type="checkbox" checked={selected && !pending} disabled={pending} onChange={(e) => onSelect(r.id, e.target.checked)} aria-label={`Select ${label} ${r.content}`} />
        )}
      </div>
      <div role="cell" className="c-name">
        <span className="strong">
          <Labels name={r.name} />
        </span>
        {r.name !== '@' ? (
          <span className="muted">
            .<wbr />
            <Labels name={domain} />
          </span>
        ) : (
          <span className="muted small"> (apex)</span>
        )}
      </div>
      <div role="cell" className="c-type">
        <Badge tone="info">{r.record_type}</Badge>
        {pool !== undefined ? (
          <Badge tone="success" title="Answered by a health-checked pool: its healthy members, changed by the checks">
            pool
          </Badge>
        ) : null}
        {r.disabled ? (
          <Badge tone="warning" title="Kept in the zone but not served: not answered, signed or transferred">
            disabled
          </Badge>
        ) : null}
      </div>
      <div role="cell" className="c-content mono">
        <span className="content-text">{r.content}</span>
        {advice ? (
          <span className="advice" title={advice}>
            ⚠<span className="visually-hidden">{advice}</span>
          </span>
        ) : null}
        {r.comment ? (
          <span className="record-comment" title={r.comment}>
            <span className="visually-hidden">Comment: </span>
            {r.comment}
          </span>
        ) : null}
      </div>
      <div role="cell" className="c-ttl mono" title={formatDuration(Number(r.ttl))}>
        {r.ttl}
      </div>
      <div role="cell" className="c-actions">
        {readOnly ? null : pending ? (
          // Still a button (aria-disabled, so it keeps focus) where Edit will be once saved.
          <button type="button" className="btn btn-small" aria-disabled="true" aria-label={`Edit ${label}`} onClick={() => {}}>
            Saving…
          </button>
        ) : isManaged(r) ? (
          <span className="muted small" title="The apex NS set is managed by zonedeck">
            managed
          </span>
        ) : pool !== undefined ? (
          <Link className="btn btn-small" to={routes.pool(domain, String(pool))} aria-label={`Pool answering ${label}`}>
            Pool
          </Link>
        ) : armed ? (
          <>
            <button type="button" className="btn btn-small btn-danger" onClick={() => onDelete(r)} aria-label={`Confirm delete ${label}`} autoFocus>
              Confirm
            </button>
            <button type="button" className="btn btn-small" onClick={() => onArm(null)}>
              Keep
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn-small" onClick={() => onEdit(r)} aria-label={`Edit ${label}`}>
              Edit
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => onToggle(r)}
              aria-label={`${r.disabled ? 'Enable' : 'Disable'} ${label} ${r.content}`}
              title={r.disabled ? 'Serve this record again' : 'Keep this record but stop serving it'}
            >
              {r.disabled ? 'Enable' : 'Disable'}
            </button>
            <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => onArm(r.id)} aria-label={`Delete ${label}`}>
              Delete
            </button>
          </>
        )}
      </div>
    </>
  );
});

export interface RecordsTableProps {
  domain: Domain;
  rows: DnsRecord[];
  total: number;
  ips: readonly Ip[] | undefined;
  sort: Sort;
  onSort: (key: SortKey) => void;
  pendingIds: ReadonlySet<number>;
  armedId: number | null;
  onArm: (id: number | null) => void;
  editingId: number | null;
  renderEditor: (r: DnsRecord) => ReactNode;
  onEdit: (r: DnsRecord) => void;
  onDelete: (r: DnsRecord) => void;
  /** Disables a served record or serves a disabled one again. */
  onToggle: (r: DnsRecord) => void;
  selected: ReadonlySet<number>;
  /** The "select all shown" box's state over `rows`. */
  allShown: SelectAll;
  onSelect: (id: number, on: boolean) => void;
  onSelectAllShown: (on: boolean) => void;
  /** A viewer's table: no selection, no row actions. */
  readOnly?: boolean;
  /** The zone's health-checked pools by the set each answers (`"<name> <type>"` → pool id). */
  pools?: ReadonlyMap<string, number>;
}

export function RecordsTable(props: RecordsTableProps) {
  const {
    domain,
    rows,
    total,
    ips,
    sort,
    onSort,
    pendingIds,
    armedId,
    onArm,
    editingId,
    renderEditor,
    onEdit,
    onDelete,
    onToggle,
    selected,
    allShown,
    onSelect,
    onSelectAllShown,
    readOnly = false,
    pools,
  } = props;
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts in the page: what is above it (the add form, the selection bar) moves it.
  // Measured after each render and whenever the page's size changes (a card above it loads).
  const [listTop, setListTop] = useState(0);
  const measure = useRef(() => setListTop(Math.round((listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY)));
  useLayoutEffect(() => measure.current());
  useLayoutEffect(() => {
    const seen = new ResizeObserver(() => measure.current());
    seen.observe(document.body);
    return () => seen.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    scrollMargin: listTop,
    // A row's height depends on the screen (on a phone it wraps to three lines) and on what it
    // shows (a disabled record's badge): each row rendered is measured, so rows never overlap.
    estimateSize: () => (window.matchMedia?.('(max-width: 640px)').matches ? 92 : 44),
    overscan: 12,
    getItemKey: (i) => rows[i]!.id,
  });
  const items = virtualizer.getVirtualItems();
  // The row editor opens fully in view: the page scrolls to it (the form's first field has focus).
  // Again once the editor's row is measured: the last row's form needs the list to grow first.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (editingId !== null) listRef.current?.querySelector('.record-row.editing')?.scrollIntoView({ block: 'nearest' });
  }, [editingId, totalSize]);
  return (
    <div role="table" className="records-table" aria-label={`Records of ${domain.name}`} aria-rowcount={rows.length + 1}>
      <div role="rowgroup" className="records-head">
        <div role="row" className="record-row" aria-rowindex={1}>
          <div role="columnheader" className="c-select">
            {readOnly ? null : (
              <input
                type="checkbox"
                ref={(el) => {
                  if (el) el.indeterminate = allShown === 'some';
                }}
                checked={allShown === 'all'}
                disabled={!rows.some(isSelectable)}
                onChange={(e) => onSelectAllShown(e.target.checked)}
                aria-label="Select all shown records"
              />
            )}
          </div>
          {COLUMNS.map((c) => (
            <div role="columnheader" key={c.key} className={`c-${c.key === 'record_type' ? 'type' : c.key}`} aria-sort={sort.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
              <button type="button" className="sort-button" onClick={() => onSort(c.key)}>
                {c.label}
                <span aria-hidden="true" className="sort-mark">
                  {sort.key === c.key ? (sort.dir === 1 ? '▲' : '▼') : '↕'}
                </span>
              </button>
            </div>
          ))}
          <div role="columnheader" className="c-actions">
            <span className="visually-hidden">Actions</span>
          </div>
        </div>
      </div>
      <div ref={listRef} className="records-scroll" role="rowgroup" data-testid="records-scroll">
        <div className="records-body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((v) => {
            const r = rows[v.index]!;
            const editing = editingId === r.id;
            return (
              <div
                key={v.key}
                ref={virtualizer.measureElement}
                data-index={v.index}
                role="row"
                aria-rowindex={v.index + 2}
                className={`record-row${editing ? ' editing' : ''}${pendingIds.has(r.id) || r.id < 0 ? ' pending' : ''}${selected.has(r.id) ? ' selected' : ''}${r.disabled ? ' record-disabled' : ''}${v.index % 2 ? ' odd' : ''}`}
                style={{ transform: `translateY(${v.start - listTop}px)` }}
              >
                {editing ? (
                  <div role="cell" className="c-editor">
                    {renderEditor(r)}
                  </div>
                ) : (
                  <RecordRow
                    r={r}
                    domain={domain.name}
                    ips={ips}
                    pending={pendingIds.has(r.id) || r.id < 0}
                    armed={armedId === r.id}
                    selected={selected.has(r.id)}
                    onEdit={onEdit}
                    onArm={onArm}
                    onDelete={onDelete}
                    onToggle={onToggle}
                    onSelect={onSelect}
                    readOnly={readOnly}
                    pool={pools?.get(`${r.name} ${r.record_type}`)}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {rows.length === 0 ? <p className="records-none muted">{total === 0 ? 'This zone has no records yet.' : 'No record matches these filters.'}</p> : null}
    </div>
  );
}
