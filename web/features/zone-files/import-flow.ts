/**
 * The import's steps as one piece of state: the text and the mode the user is writing, the last
 * preview (what Apply sends, and only while the form still says the same), and the apply. Apply
 * carries the preview's serial as If-Match: if the zone changed in between, the conflict banner
 * says who changed it, nothing is applied, and the preview is made again against the zone as it is.
 */
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../lib/api-client';
import { routes } from '../../lib/paths';
import { useToast } from '../../ui/toast';
import { useZoneConflict } from '../../ui/zone-conflict';
import { importSummary, lineErrors } from './import-outcome';
import { PREVIEW_TITLE } from './import-preview';
import { useImportZone, usePreviewImport, type ImportMode } from './import-zone';
import type { ZoneTextBoxHandle } from './zone-text-box';

export const NO_LINES: ReadonlySet<number> = new Set();

export function useImportFlow(domain: string) {
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

  return { text, setText, mode, setMode, refreshed, box, preview, apply, draft, outdated, errorLines, goTo, runPreview, discard, runApply };
}
