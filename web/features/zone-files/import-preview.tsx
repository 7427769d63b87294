/**
 * The preview of an import (a dry run): what it would change, as History shows a change set
 * (+/- zone-file lines, settings, counts, "and N more"), and the lines of the file that are not
 * taken (DNSSEC records, the apex NS set) with their reasons. Apply sends exactly this.
 */
import { useState, type ReactNode } from 'react';
import type { IgnoredRecord, ZoneImportResult } from '../../lib/api-types';
import { formatNumber } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { ChangeDiff } from '../../ui/change-diff';
import { changesNothing, importSummary } from './import-outcome';
import type { ImportMode } from './import-zone';
import './zone-files.css';

const IGNORED_SHOWN = 20;

/** The id of the preview's heading, scrolled to when a preview arrives. */
export const PREVIEW_TITLE = 'import-preview-title';

function IgnoredLines({ ignored, onGoTo }: { ignored: IgnoredRecord[]; onGoTo: (line: number) => void }) {
  const [all, setAll] = useState(false);
  const shown = all ? ignored : ignored.slice(0, IGNORED_SHOWN);
  return (
    <section className="ignored" aria-labelledby="ignored-title">
      <h3 id="ignored-title">
        Not imported <span className="muted">({formatNumber(ignored.length)})</span>
      </h3>
      <ul className="line-errors ignored-list" aria-label="Lines not imported">
        {shown.map((r, i) => (
          <li key={`${r.line}-${i}`}>
            <button type="button" className="btn btn-link" onClick={() => onGoTo(r.line)} title={`Select line ${r.line} in the text`}>
              Line {r.line}
            </button>{' '}
            <code>
              {r.name} {r.record_type}
            </code>{' '}
            <span className="muted">{r.reason}</span>
          </li>
        ))}
      </ul>
      {ignored.length > shown.length ? (
        <p className="diff-more small">
          <span className="muted">and {formatNumber(ignored.length - shown.length)} more</span>{' '}
          <button type="button" className="btn btn-link" onClick={() => setAll(true)}>
            Show all
          </button>
        </p>
      ) : null}
    </section>
  );
}

export function ImportPreview({
  domain,
  result,
  mode,
  refreshed,
  applying,
  children,
  onApply,
  onDiscard,
  onGoTo,
}: {
  domain: string;
  result: ZoneImportResult;
  mode: ImportMode;
  /** The zone changed after the preview was first made; this is the preview made again. */
  refreshed: boolean;
  applying: boolean;
  /** An error from Apply, shown above the buttons. */
  children?: ReactNode;
  onApply: () => void;
  onDiscard: () => void;
  onGoTo: (line: number) => void;
}) {
  const { change, ignored } = result;
  const nothing = changesNothing(change);
  return (
    <section className="card import-preview" aria-labelledby={PREVIEW_TITLE}>
      <h2 id={PREVIEW_TITLE}>Preview</h2>
      {refreshed ? (
        <Alert tone="warning" title="The zone changed since your preview, so nothing was imported">
          The preview below is what the import would do to the zone as it is now. Check it and apply again.
        </Alert>
      ) : null}
      <p data-testid="import-summary">
        {mode === 'replace' ? 'Replacing the records with this file ' : 'Merging this file into the zone '}
        <strong>{importSummary(change)}</strong>.
      </p>
      {nothing ? null : (
        <>
          <p className="muted small">
            The zone’s serial moves from <span className="mono">{change.serial_before}</span> to <span className="mono">{change.serial_after}</span> (the file’s own serial is not used), as one change
            set that History can revert.
          </p>
          <ChangeDiff domain={domain} change={change} label="the import would apply" />
        </>
      )}
      {ignored.length ? <IgnoredLines ignored={ignored} onGoTo={onGoTo} /> : null}
      {children}
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={onApply} disabled={nothing || applying}>
          {applying ? 'Importing…' : 'Apply import'}
        </button>
        <button type="button" className="btn" onClick={onDiscard} disabled={applying}>
          Discard preview
        </button>
      </div>
    </section>
  );
}
