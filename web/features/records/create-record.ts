/** Adds a record: it appears at once, marked as saving, and disappears again if the server refuses it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { DnsRecord, RecordCreate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../domains/keys';
import { afterRecordChange, patchRecords, recordMutationKey, remove, upsert } from './record-cache';

export const createRecord = (domain: string, input: RecordCreate) => request<DnsRecord>('POST', bff.records(domain), { body: input });

let tempId = -1;
/** Ids below zero mark records the server has not confirmed yet. */
export const nextTempId = () => tempId--;

export function useCreateRecord(domain: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationKey: recordMutationKey(domain),
    mutationFn: ({ input }: { input: RecordCreate; optimistic: DnsRecord }) => createRecord(domain, input),
    onMutate: async ({ optimistic }) => {
      await qc.cancelQueries({ queryKey: domainKeys.records(domain) });
      patchRecords(qc, domain, (list) => [...list, optimistic]);
    },
    onError: (_e, { optimistic }) => patchRecords(qc, domain, remove(optimistic.id)),
    onSuccess: (rec, { optimistic }) => patchRecords(qc, domain, upsert(rec, optimistic.id)),
    onSettled: (_r, _e, { optimistic }) => afterRecordChange(qc, domain, [optimistic.record_type]),
  });
}
