/** Confirms deleting the selected records: they are listed as the lines History will show, and go as one change set. */
import { useState } from 'react';
import type { DnsRecord } from '../../lib/api-types';
import { formatNumber } from '../../lib/format';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { TextField } from '../../ui/field';
import { zoneFileLine } from '../../lib/change-lines';
import '../../ui/change-diff.css';

const LISTED = 12;

export const recordsWord = (n: number) => `${formatNumber(n)} record${n === 1 ? '' : 's'}`;

export function DeleteRecordsDialog({
  zone,
  records,
  hidden,
  open,
  onClose,
  onConfirm,
}: {
  zone: string;
  records: DnsRecord[];
  hidden: number;
  open: boolean;
  onClose: () => void;
  onConfirm: (comment: string) => void;
}) {
  const [comment, setComment] = useState('');
  const n = records.length;
  return (
    <ConfirmDialog
      open={open}
      title={`Delete ${recordsWord(n)} from ${zone}?`}
      onCancel={onClose}
      onConfirm={() => {
        onConfirm(comment.trim());
        setComment('');
      }}
      confirmLabel={`Delete ${recordsWord(n)}`}
      wide
    >
      <p>They are deleted together, as one change: all of them or, if the server refuses one, none. The zone’s History can revert it.</p>
      {hidden > 0 ? (
        <p className="strong">
          {recordsWord(hidden)} of these {hidden === 1 ? 'is' : 'are'} hidden by the current filters.
        </p>
      ) : null}
      <ul className="diff" aria-label="Records to delete" tabIndex={0}>
        {records.slice(0, LISTED).map((r) => (
          <li key={r.id} className="diff-del">
            {zoneFileLine({ sign: '-', name: r.name, ttl: r.ttl, record_type: r.record_type, content: r.content })}
          </li>
        ))}
      </ul>
      {n > LISTED ? <p className="muted small">and {formatNumber(n - LISTED)} more</p> : null}
      <TextField label="Comment (optional)" value={comment} maxLength={500} placeholder="Why, for the history" onChange={(e) => setComment(e.target.value)} />
    </ConfirmDialog>
  );
}
