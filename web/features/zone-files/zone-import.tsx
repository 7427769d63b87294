/**
 * Import a master file into a zone: paste or upload it, choose Replace or Merge, Preview (a
 * dry run: the server's errors shown by line, or the change set it would apply), then Apply
 * exactly what was previewed (import-flow.ts holds the steps).
 */
import { Alert } from '../../ui/alert';
import { LoadingState } from '../../ui/states';
import { NO_LINES, useImportFlow } from './import-flow';
import { ImportErrors } from './import-errors';
import { ImportModeChoice } from './import-mode-choice';
import { ImportPreview } from './import-preview';
import { ZoneFileUpload } from './zone-file-upload';
import { ZoneTextBox } from './zone-text-box';
import '../../ui/field.css';
import './zone-files.css';

export function ZoneImport({ domain }: { domain: string }) {
  const flow = useImportFlow(domain);
  const { preview, apply, outdated } = flow;
  const errorsId = 'zone-file-errors';
  return (
    <>
      <section className="card" aria-labelledby="import-title">
        <h2 id="import-title">Import a zone file</h2>
        <p className="muted">
          A master file as BIND, Knot, PowerDNS (<code>pdnsutil list-zone</code>) or Cloudflare write them. Names without a final dot are relative to <span className="mono">{domain}</span>. DNSSEC
          records and the apex NS set are not imported: zonedeck signs the zone and manages its name servers.
        </p>
        <ZoneFileUpload onText={flow.setText} />
        <div className={`field zone-file-field${flow.errorLines.size ? ' field-invalid' : ''}`}>
          <label htmlFor="zone-file-text">Zone file</label>
          <ZoneTextBox
            id="zone-file-text"
            ref={flow.box}
            value={flow.text}
            onChange={flow.setText}
            errorLines={outdated ? NO_LINES : flow.errorLines}
            rows={18}
            placeholder={`$ORIGIN ${domain}.\n$TTL 3600\nwww   IN A     192.0.2.1\n@     IN MX    10 mail.${domain}.`}
            aria-invalid={preview.isError ? true : undefined}
            aria-describedby={preview.isError ? errorsId : undefined}
          />
        </div>
        {preview.isError ? <ImportErrors id={errorsId} error={preview.error} outdated={outdated} onGoTo={flow.goTo} doing="preview" /> : null}
        <ImportModeChoice mode={flow.mode} onMode={flow.setMode} />
        <p className="muted small">In both cases an SOA record in the file sets the zone’s SOA timers; its serial is not used.</p>

        <div className="form-actions">
          <button type="button" className="btn btn-primary" onClick={flow.runPreview} disabled={flow.text.trim() === '' || preview.isPending || apply.isPending}>
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
            <button type="button" className="btn btn-primary" onClick={flow.runPreview} disabled={flow.text.trim() === ''}>
              Preview again
            </button>
          </div>
        </section>
      ) : preview.isSuccess ? (
        <ImportPreview
          domain={domain}
          result={preview.data}
          mode={flow.draft!.mode}
          refreshed={flow.refreshed}
          applying={apply.isPending}
          onApply={flow.runApply}
          onDiscard={flow.discard}
          onGoTo={flow.goTo}
        >
          {apply.isError ? <ImportErrors error={apply.error} outdated={false} onGoTo={flow.goTo} doing="apply" /> : null}
        </ImportPreview>
      ) : null}
    </>
  );
}
