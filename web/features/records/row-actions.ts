/**
 * What a row's buttons do besides Edit: Delete asks for a second click on the same row (the row
 * is "armed"), Disable and Enable flip whether a record is served. Each shows at once and is
 * undone if the server refuses; a stale editor (412) is told by the conflict banner, not a toast.
 */
import { useCallback, useState } from 'react';
import type { DnsRecord } from '../../lib/api-types';
import { isStale } from '../../lib/zone-serial';
import { useToast } from '../../ui/toast';
import { useDeleteRecord } from './delete-record';
import type { RecordUpdater } from './update-record';

export function useRowActions(zone: string, update: RecordUpdater) {
  const [armedId, setArmedId] = useState<number | null>(null);
  const del = useDeleteRecord(zone);
  const toast = useToast();
  const disarm = useCallback(() => setArmedId(null), []);

  const onDelete = useCallback(
    (r: DnsRecord) => {
      setArmedId(null);
      del.mutate(r, {
        onSuccess: () => toast('success', `Deleted ${r.fqdn} ${r.record_type}`),
        onError: (e) => {
          if (!isStale(e)) toast('error', `Could not delete ${r.fqdn} ${r.record_type}: ${e.message}`);
        },
      });
    },
    [del, toast],
  );

  const onToggle = useCallback(
    (r: DnsRecord) => {
      setArmedId(null);
      const { disabled: _was, ...served } = r;
      const optimistic: DnsRecord = r.disabled ? served : { ...r, disabled: true };
      update.mutate(
        { before: r, patch: { disabled: !r.disabled }, optimistic },
        {
          onSuccess: (after) => toast('success', after.disabled ? `Disabled ${after.fqdn} ${after.record_type}: kept, no longer served` : `Enabled ${after.fqdn} ${after.record_type}: served again`),
          onError: (e) => {
            if (!isStale(e)) toast('error', `Could not ${r.disabled ? 'enable' : 'disable'} ${r.fqdn} ${r.record_type}: ${e.message}`);
          },
        },
      );
    },
    [update, toast],
  );

  return { armedId, onArm: setArmedId, disarm, onDelete, onToggle };
}
