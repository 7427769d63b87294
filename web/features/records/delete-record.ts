/**
 * Deletes a record: the row goes at once and comes back, with the server's message, if the
 * delete fails (a stale If-Match included).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { DnsRecord } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { useZoneConflict } from '../../ui/zone-conflict';
import { guardedWrite, zoneScope } from '../../lib/zone-serial';
import { afterRecordChange, patchRecords, recordMutationKey, remove } from './record-cache';

export const deleteRecord = (domain: string, id: number, ifMatch?: number) => requestWrite<DnsRecord>('DELETE', bff.record(domain, id), { ifMatch });

export function useDeleteRecord(domain: string) {
  const qc = useQueryClient();
  const { report } = useZoneConflict();
  return useMutation({
    mutationKey: recordMutationKey(domain),
    scope: zoneScope(domain),
    mutationFn: (rec: DnsRecord) => guardedWrite(qc, domain, (ifMatch) => deleteRecord(domain, rec.id, ifMatch)),
    onMutate: async (rec) => {
      await qc.cancelQueries({ queryKey: domainKeys.records(domain) });
      patchRecords(qc, domain, remove(rec.id));
    },
    onError: (e, rec) => {
      patchRecords(qc, domain, (list) => (list.some((r) => r.id === rec.id) ? list : [...list, rec]));
      report(e);
    },
    onSettled: (_r, _e, rec) => afterRecordChange(qc, domain, [rec.record_type]),
  });
}
