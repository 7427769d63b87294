/**
 * A change set's records as +/- lines in zone-file style and its settings changes. Long ones
 * show their first lines and "and N more"; "Show all" expands them, loading the whole change
 * set when the list the server sent was cut short (at most 1,000 records a side). The lines scroll
 * sideways rather than wrap (a record is one line, as in a zone file), so the list is a tab stop.
 */
import { useState } from 'react';
import type { ChangeSet } from '../lib/api-types';
import { formatNumber } from '../lib/format';
import { Spinner } from './states';
import { diffLines, missingLines, settingLines, zoneFileLine } from '../lib/change-lines';
import { useChange } from '../features/history/get-change';
import './change-diff.css';

const COLLAPSED = 12;

export function ChangeDiff({ domain, change, label }: { domain: string; change: ChangeSet; label: string }) {
  const [expanded, setExpanded] = useState(false);
  const missing = missingLines(change);
  const full = useChange(domain, change.id ?? 0, expanded && missing > 0 && change.id !== null);
  const source = expanded && full.data ? full.data : change;
  const lines = diffLines(source);
  const settings = settingLines(change.settings);
  const total = lines.length + (source === change ? missing : 0);
  const shown = expanded ? lines : lines.slice(0, COLLAPSED);
  const more = total - shown.length;

  if (total === 0 && settings.length === 0) return <p className="muted small">No record or setting changed: only the serial moved on.</p>;
  return (
    <div className="change-diff">
      {settings.length ? (
        <ul className="change-settings" aria-label={`Settings ${label}`}>
          {settings.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      ) : null}
      {shown.length ? (
        // Long lines scroll sideways: the list takes focus so that the keyboard can scroll it too (arrow keys).
        <ul className={`diff${expanded ? ' diff-expanded' : ''}`} aria-label={`Records ${label}`} tabIndex={0}>
          {shown.map((l, i) => (
            <li key={i} className={l.sign === '+' ? 'diff-add' : 'diff-del'}>
              {zoneFileLine(l)}
            </li>
          ))}
        </ul>
      ) : null}
      {more > 0 ? (
        <p className="diff-more small">
          <span className="muted">and {formatNumber(more)} more</span>{' '}
          {full.isFetching ? (
            <Spinner label="Loading the whole change set" />
          ) : (
            <button type="button" className="btn btn-link" onClick={() => setExpanded(true)}>
              Show all {formatNumber(total)} records
            </button>
          )}
          {full.isError ? <span className="field-error"> {full.error.message}</span> : null}
        </p>
      ) : expanded && lines.length > COLLAPSED ? (
        <p className="diff-more small">
          <button type="button" className="btn btn-link" onClick={() => setExpanded(false)}>
            Show fewer
          </button>
        </p>
      ) : null}
    </div>
  );
}
