/**
 * Changes a record: the row shows the new values at once and gets the old ones back if the
 * server refuses (a stale If-Match included).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { DnsRecord, RecordUpdate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { useZoneConflict } from '../../ui/zone-conflict';
import { guardedWrite, zoneScope } from '../../lib/zone-serial';
import { afterRecordChange, patchRecords, recordMutationKey, upsert } from './record-cache';

export const updateRecord = (domain: string, id: number, patch: RecordUpdate, ifMatch?: number) => requestWrite<DnsRecord>('PUT', bff.record(domain, id), { body: patch, ifMatch });

export function useUpdateRecord(domain: string) {
  const qc = useQueryClient();
  const { report } = useZoneConflict();
  return useMutation({
    mutationKey: recordMutationKey(domain),
    scope: zoneScope(domain),
    mutationFn: ({ before, patch }: { before: DnsRecord; patch: RecordUpdate; optimistic: DnsRecord }) => guardedWrite(qc, domain, (ifMatch) => updateRecord(domain, before.id, patch, ifMatch)),
    onMutate: async ({ optimistic }) => {
      await qc.cancelQueries({ queryKey: domainKeys.records(domain) });
      // Only this row: the RRset's TTL follows when the server confirms.
      patchRecords(qc, domain, (list) => list.map((r) => (r.id === optimistic.id ? optimistic : r)));
    },
    onError: (e, { before }) => {
      patchRecords(qc, domain, (list) => list.map((r) => (r.id === before.id ? before : r)));
      report(e);
    },
    onSuccess: (rec) => patchRecords(qc, domain, upsert(rec)),
    onSettled: (_r, _e, { before, optimistic }) => afterRecordChange(qc, domain, [before.record_type, optimistic.record_type]),
  });
}

/** One record update mutation, shared by the row editor and the row's Disable/Enable so that they queue as one. */
export type RecordUpdater = ReturnType<typeof useUpdateRecord>;
