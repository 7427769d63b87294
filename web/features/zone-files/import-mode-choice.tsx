/** Replace or Merge, and what each does to the records the file does not hold. */
import { Alert } from '../../ui/alert';
import type { ImportMode } from './import-zone';
import './zone-files.css';

export function ImportModeChoice({ mode, onMode }: { mode: ImportMode; onMode: (m: ImportMode) => void }) {
  return (
    <>
      <fieldset className="import-mode">
        <legend>What to do with the zone’s records</legend>
        <label className="radio-option">
          <input type="radio" name="import-mode" value="replace" checked={mode === 'replace'} onChange={() => onMode('replace')} />
          <span>
            <strong>Replace</strong> them with the file’s
          </span>
        </label>
        <label className="radio-option">
          <input type="radio" name="import-mode" value="merge" checked={mode === 'merge'} onChange={() => onMode('merge')} />
          <span>
            <strong>Merge</strong>: add the file’s records and keep the others
          </span>
        </label>
      </fieldset>
      {mode === 'replace' ? (
        <Alert tone="warning" title="Records that are not in the file are removed">
          After a replace the zone holds exactly the file’s records; only the apex NS set stays, as zonedeck manages it. The preview lists every record that would go.
        </Alert>
      ) : (
        <p className="muted small">Records of the file are added to the RRsets of the same name and type (which take the file’s TTL); nothing is removed.</p>
      )}
    </>
  );
}
