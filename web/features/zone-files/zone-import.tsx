/**
 * Import a master file into a zone: paste or upload it, choose Replace or Merge, Preview (a
 * dry run: the server's errors shown by line, or the change set it would apply), then Apply
 * exactly what was previewed. Apply carries the preview's serial as If-Match: if the zone
 * changed in between, the conflict banner says who changed it, nothing is applied, and the
 * preview is made again against the zone as it is now.
 */
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../lib/api-client';
import { routes } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { LoadingState } from '../../ui/states';
import { useToast } from '../../ui/toast';
import { useZoneConflict } from '../../ui/zone-conflict';
import { ImportErrors } from './import-errors';
import { importSummary, lineErrors } from './import-outcome';
import { ImportPreview, PREVIEW_TITLE } from './import-preview';
import { useImportZone, usePreviewImport, type ImportMode } from './import-zone';
import { ZoneFileUpload } from './zone-file-upload';
import { ZoneTextBox, type ZoneTextBoxHandle } from './zone-text-box';
import '../../ui/field.css';
import './zone-files.css';

const NO_LINES: ReadonlySet<number> = new Set();

export function ZoneImport({ domain }: { domain: string }) {
  const [text, setText] = useState('');
  const [mode, setMode] = useState<ImportMode>('replace');
  const [refreshed, setRefreshed] = useState(false);
  const box = useRef<ZoneTextBoxHandle>(null);
  const preview = usePreviewImport(domain);
  const apply = useImportZone(domain);
  const { report } = useZoneConflict();
  const toast = useToast();
  const navigate = useNavigate();

  // What the last preview was made of: Apply sends that, and only while the form still says the same.
  const draft = preview.variables;
  const outdated = draft !== undefined && (draft.text !== text || draft.mode !== mode);
  const errorLines = useMemo(() => (preview.error instanceof ApiError ? new Set(lineErrors(preview.error.fields).lines.map((l) => l.line)) : NO_LINES), [preview.error]);
  const goTo = (line: number) => box.current?.goToLine(line);

  const runPreview = () => {
    apply.reset();
    setRefreshed(false);
    // The preview opens below the form: bring it into view.
    preview.mutate({ text, mode }, { onSuccess: () => requestAnimationFrame(() => document.getElementById(PREVIEW_TITLE)?.scrollIntoView({ block: 'start' })) });
  };
  const discard = () => {
    apply.reset();
    preview.reset();
    setRefreshed(false);
  };
  const runApply = () => {
    if (!draft || !preview.data) return;
    const serial = preview.data.change.serial_before;
    apply.mutate(
      { draft, serial },
      {
        onSuccess: (r) => {
          toast('success', `Imported into ${domain}${r.change.id !== null ? ` (change #${r.change.id})` : ''}: ${importSummary(r.change)}`);
          navigate(routes.domain(domain));
        },
        onError: (e) => {
          // The zone moved on since the preview: say who moved it, and preview again against the zone as it is.
          if (report(e, serial)) {
            apply.reset();
            setRefreshed(true);
            preview.mutate(draft);
          }
        },
      },
    );
  };

  const errorsId = 'zone-file-errors';
  return (
    <>
      <section className="card" aria-labelledby="import-title">
        <h2 id="import-title">Import a zone file</h2>
        <p className="muted">
          A master file as BIND, Knot, PowerDNS (<code>pdnsutil list-zone</code>) or Cloudflare write them. Names without a final dot are relative to{' '}
          <span className="mono">{domain}</span>. DNSSEC records and the apex NS set are not imported: zonedeck signs the zone and manages its name servers.
        </p>
        <ZoneFileUpload onText={setText} />
        <div className={`field zone-file-field${errorLines.size ? ' field-invalid' : ''}`}>
          <label htmlFor="zone-file-text">Zone file</label>
          <ZoneTextBox
            id="zone-file-text"
            ref={box}
            value={text}
            onChange={setText}
            errorLines={outdated ? NO_LINES : errorLines}
            rows={18}
            placeholder={`$ORIGIN ${domain}.\n$TTL 3600\nwww   IN A     192.0.2.1\n@     IN MX    10 mail.${domain}.`}
            aria-invalid={preview.isError ? true : undefined}
            aria-describedby={preview.isError ? errorsId : undefined}
          />
        </div>
        {preview.isError ? <ImportErrors id={errorsId} error={preview.error} outdated={outdated} onGoTo={goTo} doing="preview" /> : null}

        <fieldset className="import-mode">
          <legend>What to do with the zone’s records</legend>
          <label className="radio-option">
            <input type="radio" name="import-mode" value="replace" checked={mode === 'replace'} onChange={() => setMode('replace')} />
            <span>
              <strong>Replace</strong> them with the file’s
            </span>
          </label>
          <label className="radio-option">
            <input type="radio" name="import-mode" value="merge" checked={mode === 'merge'} onChange={() => setMode('merge')} />
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
        <p className="muted small">In both cases an SOA record in the file sets the zone’s SOA timers; its serial is not used.</p>

        <div className="form-actions">
          <button type="button" className="btn btn-primary" onClick={runPreview} disabled={text.trim() === '' || preview.isPending || apply.isPending}>
            {preview.isPending ? 'Checking the file…' : 'Preview'}
          </button>
          <span className="muted small">A preview changes nothing.</span>
        </div>
      </section>

      {preview.isPending ? (
        <section className="card" aria-label="Preview">
          <LoadingState label="Working out what the import would change…" />
        </section>
      ) : preview.isSuccess && outdated ? (
        <section className="card" aria-label="Preview">
          <Alert tone="info" title="The file or the mode changed since the preview">
            Preview again to see what importing it would change.
          </Alert>
          <div className="form-actions">
            <button type="button" className="btn btn-primary" onClick={runPreview} disabled={text.trim() === ''}>
              Preview again
            </button>
          </div>
        </section>
      ) : preview.isSuccess ? (
        <ImportPreview domain={domain} result={preview.data} mode={draft!.mode} refreshed={refreshed} applying={apply.isPending} onApply={runApply} onDiscard={discard} onGoTo={goTo}>
          {apply.isError ? <ImportErrors error={apply.error} outdated={false} onGoTo={goTo} doing="apply" /> : null}
        </ImportPreview>
      ) : null}
    </>
  );
}
