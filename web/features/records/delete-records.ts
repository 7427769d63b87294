/**
 * Deletes several records as one change set (one RRset PATCH of REMOVE entries, all or
 * nothing, guarded by If-Match): the rows go at once and all come back if the server refuses.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { ChangeSet, DnsRecord, RRsetPatch } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { useZoneConflict } from '../../ui/zone-conflict';
import { guardedWrite, zoneScope } from '../../lib/zone-serial';
import { afterRecordChange, patchRecords, recordMutationKey } from './record-cache';
import { removalsOf } from './record-selection';

export const patchRRsets = (domain: string, body: RRsetPatch, ifMatch?: number) => requestWrite<ChangeSet>('PATCH', bff.rrsets(domain), { body, ifMatch });

export function useDeleteRecords(domain: string) {
  const qc = useQueryClient();
  const { report } = useZoneConflict();
  return useMutation({
    mutationKey: recordMutationKey(domain),
    scope: zoneScope(domain),
    mutationFn: ({ records, comment }: { records: DnsRecord[]; comment?: string }) =>
      guardedWrite(qc, domain, (ifMatch) => patchRRsets(domain, { rrsets: removalsOf(records), ...(comment ? { comment } : {}) }, ifMatch)),
    onMutate: async ({ records }) => {
      await qc.cancelQueries({ queryKey: domainKeys.records(domain) });
      const ids = new Set(records.map((r) => r.id));
      patchRecords(qc, domain, (list) => list.filter((r) => !ids.has(r.id)));
    },
    onError: (e, { records }) => {
      patchRecords(qc, domain, (list) => {
        const present = new Set(list.map((r) => r.id));
        return [...list, ...records.filter((r) => !present.has(r.id))];
      });
      report(e);
    },
    onSettled: (_r, _e, { records }) => afterRecordChange(qc, domain, [...new Set(records.map((r) => r.record_type))]),
  });
}
