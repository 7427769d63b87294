/**
 * Adds a record: it appears at once, marked as saving, and disappears again if the server
 * refuses it (a stale If-Match included).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestWrite } from '../../lib/api-client';
import type { DnsRecord, RecordCreate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';
import { useZoneConflict } from '../../ui/zone-conflict';
import { guardedWrite, zoneScope } from '../../lib/zone-serial';
import { afterRecordChange, patchRecords, recordMutationKey, remove, upsert } from './record-cache';

export const createRecord = (domain: string, input: RecordCreate, ifMatch?: number) => requestWrite<DnsRecord>('POST', bff.records(domain), { body: input, ifMatch });

let tempId = -1;
/** Ids below zero mark records the server has not confirmed yet. */
export const nextTempId = () => tempId--;

export function useCreateRecord(domain: string) {
  const qc = useQueryClient();
  const { report } = useZoneConflict();
  return useMutation({
    mutationKey: recordMutationKey(domain),
    scope: zoneScope(domain),
    mutationFn: ({ input }: { input: RecordCreate; optimistic: DnsRecord }) => guardedWrite(qc, domain, (ifMatch) => createRecord(domain, input, ifMatch)),
    onMutate: async ({ optimistic }) => {
      await qc.cancelQueries({ queryKey: domainKeys.records(domain) });
      patchRecords(qc, domain, (list) => [...list, optimistic]);
    },
    onError: (e, { optimistic }) => {
      patchRecords(qc, domain, remove(optimistic.id));
      report(e);
    },
    onSuccess: (rec, { optimistic }) => patchRecords(qc, domain, upsert(rec, optimistic.id)),
    onSettled: (_r, _e, { optimistic }) => afterRecordChange(qc, domain, [optimistic.record_type]),
  });
}
