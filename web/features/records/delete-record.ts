/** Deletes a record: the row goes at once and comes back, with the server's message, if the delete fails. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { DnsRecord } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../domains/keys';
import { afterRecordChange, patchRecords, recordMutationKey, remove } from './record-cache';

export const deleteRecord = (domain: string, id: number) => request<DnsRecord>('DELETE', bff.record(domain, id));

export function useDeleteRecord(domain: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: recordMutationKey(domain),
    mutationFn: (rec: DnsRecord) => deleteRecord(domain, rec.id),
    onMutate: async (rec) => {
      await qc.cancelQueries({ queryKey: domainKeys.records(domain) });
      patchRecords(qc, domain, remove(rec.id));
    },
    onError: (_e, rec) => patchRecords(qc, domain, (list) => (list.some((r) => r.id === rec.id) ? list : [...list, rec])),
    onSettled: (_r, _e, rec) => afterRecordChange(qc, domain, [rec.record_type]),
  });
}
