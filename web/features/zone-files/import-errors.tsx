/**
 * Why the server refused a file (400): one message per line of the file, each line number a
 * button that selects that line in the text box. Nothing was applied.
 */
import { ApiError } from '../../lib/api-client';
import { formatNumber } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { lineErrors } from './import-outcome';
import './zone-files.css';

export function ImportErrors({ error, outdated, onGoTo, id, doing }: { error: Error; outdated: boolean; onGoTo: (line: number) => void; id?: string; doing: 'preview' | 'apply' }) {
  if (!(error instanceof ApiError) || error.status !== 400) {
    const tooLarge = error instanceof ApiError && error.status === 413;
    return (
      <div id={id}>
        <Alert title={tooLarge ? 'The file is too large to import at once' : doing === 'preview' ? 'Could not preview the import' : 'Could not import the file'}>
          <p>{error.message}</p>
          {tooLarge ? <p>Split it into parts and import them one after another with Merge, or use the admin CLI (zones import).</p> : null}
        </Alert>
      </div>
    );
  }
  const { lines, other } = lineErrors(error.fields);
  const count = lines.length + other.length;
  return (
    <div id={id}>
      <Alert title={count > 1 ? `The file has ${formatNumber(count)} errors; nothing was changed` : 'The file has an error; nothing was changed'}>
        {count === 0 ? <p>{error.message}</p> : null}
        {outdated ? <p>These are from your last preview; the text has changed since.</p> : null}
        {count === 0 ? null : (
          <ul className="line-errors" aria-label="Errors by line">
            {lines.map((l) => (
              <li key={l.line}>
                <button type="button" className="btn btn-link" onClick={() => onGoTo(l.line)} title={`Select line ${l.line} in the text`}>
                  Line {l.line}
                </button>{' '}
                <span>{l.message}</span>
              </li>
            ))}
            {other.map(([field, message]) => (
              <li key={field}>
                <code>{field}</code> <span>{message}</span>
              </li>
            ))}
          </ul>
        )}
      </Alert>
    </div>
  );
}
