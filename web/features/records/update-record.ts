/** Changes a record: the row shows the new values at once and gets the old ones back if the server refuses. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { DnsRecord, RecordUpdate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../domains/keys';
import { afterRecordChange, patchRecords, recordMutationKey, upsert } from './record-cache';

export const updateRecord = (domain: string, id: number, patch: RecordUpdate) => request<DnsRecord>('PUT', bff.record(domain, id), { body: patch });

export function useUpdateRecord(domain: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: recordMutationKey(domain),
    mutationFn: ({ before, patch }: { before: DnsRecord; patch: RecordUpdate; optimistic: DnsRecord }) => updateRecord(domain, before.id, patch),
    onMutate: async ({ optimistic }) => {
      await qc.cancelQueries({ queryKey: domainKeys.records(domain) });
      // Only this row: the RRset's TTL follows when the server confirms.
      patchRecords(qc, domain, (list) => list.map((r) => (r.id === optimistic.id ? optimistic : r)));
    },
    onError: (_e, { before }) => patchRecords(qc, domain, (list) => list.map((r) => (r.id === before.id ? before : r))),
    onSuccess: (rec) => patchRecords(qc, domain, upsert(rec)),
    onSettled: (_r, _e, { before, optimistic }) => afterRecordChange(qc, domain, [before.record_type, optimistic.record_type]),
  });
}
