/**
 * "Upload a file…": reads a zone file in the browser (nothing is sent until Preview) and hands
 * its text to the form, or says why it cannot be read.
 */
import { useId, useState } from 'react';
import { formatNumber } from '../../lib/format';
import { decodeZoneFile, lineCount } from './zone-file-text';
import './zone-files.css';

export function ZoneFileUpload({ onText }: { onText: (text: string) => void }) {
  const id = useId();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const read = async (file: File | undefined) => {
    if (!file) return;
    try {
      const text = decodeZoneFile(new Uint8Array(await file.arrayBuffer()));
      onText(text);
      setStatus({ ok: true, text: `Loaded ${file.name} (${formatNumber(lineCount(text))} lines)` });
    } catch (e) {
      setStatus({ ok: false, text: `${file.name}: ${e instanceof Error ? e.message : String(e)}` });
    }
  };

  return (
    <div className="zone-upload">
      <input
        id={id}
        type="file"
        className="visually-hidden"
        accept=".zone,.db,.txt,.hosts,text/dns,text/plain"
        onChange={(e) => {
          void read(e.target.files?.[0]);
          // The same file chosen again (after editing it on disk) is read again.
          e.target.value = '';
        }}
      />
      <label htmlFor={id} className="btn">
        Upload a file…
      </label>
      {status ? (
        <p className={status.ok ? 'muted small' : 'field-error'} role={status.ok ? 'status' : 'alert'}>
          {status.text}
        </p>
      ) : (
        <p className="muted small">or paste the file below. Nothing is sent until you preview it.</p>
      )}
    </div>
  );
}
