/**
 * The bar over the records table while rows are selected: how many (and how many of them the
 * filters hide), "Delete N records" behind a confirmation, and "Clear selection". The records
 * go as one change set; on success the selection is cleared.
 */
import { useState } from 'react';
import type { DnsRecord } from '../../lib/api-types';
import { formatNumber } from '../../lib/format';
import { useToast } from '../../ui/toast';
import { isStale } from '../../lib/zone-serial';
import { useDeleteRecords } from './delete-records';
import { DeleteRecordsDialog, recordsWord } from './delete-records-dialog';
import './records.css';

export function BulkDeleteBar({ zone, chosen, hidden, onClear }: { zone: string; chosen: DnsRecord[]; hidden: number; onClear: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const del = useDeleteRecords(zone);
  const toast = useToast();

  const confirm = (comment: string) => {
    const list = chosen;
    setConfirming(false);
    del.mutate(
      { records: list, comment },
      {
        onSuccess: (cs) => {
          onClear();
          toast('success', `Deleted ${recordsWord(list.length)} in one change${cs.id !== null ? ` (#${cs.id})` : ''}`);
        },
        // A stale editor (412) is explained by the conflict banner instead.
        onError: (e) => {
          if (!isStale(e)) toast('error', `Could not delete the ${recordsWord(list.length)}: ${e.message}`);
        },
      },
    );
  };

  return (
    <>
      {chosen.length > 0 ? (
        <div className="selection-bar" role="region" aria-label="Selected records">
          <p className="strong">
            {recordsWord(chosen.length)} selected
            {hidden > 0 ? <span className="muted"> ({formatNumber(hidden)} hidden by the filters)</span> : null}
          </p>
          <button type="button" className="btn btn-small btn-danger" onClick={() => setConfirming(true)}>
            Delete {recordsWord(chosen.length)}
          </button>
          <button type="button" className="btn btn-small" onClick={onClear}>
            Clear selection
          </button>
        </div>
      ) : null}
      <DeleteRecordsDialog zone={zone} records={chosen} hidden={hidden} open={confirming && chosen.length > 0} onClose={() => setConfirming(false)} onConfirm={confirm} />
    </>
  );
}
