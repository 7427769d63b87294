/**
 * "Retrieve now" on a secondary zone: asks the server to check the primaries at once (202), then
 * refetches the zone about every second until its last check moves, for at most ~10 s, so the
 * Transfer panel, the records and History show what the check brought.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { bff } from '../../lib/paths';
import { getDomain } from './get-domain';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const retrieveZone = (name: string) => request<Domain>('POST', bff.retrieve(name));

/** Polls until `last_check` differs from `before`; answers the newest zone seen. */
async function awaitCheck(name: string, before: string | null | undefined): Promise<Domain> {
  let latest = await getDomain(name);
  for (let i = 0; i < 10 && (latest.transfer?.last_check ?? null) === (before ?? null); i++) {
    await sleep(1000);
    latest = await getDomain(name);
  }
  return latest;
}

export function useRetrieveZone(domain: Domain) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await retrieveZone(domain.name);
      return awaitCheck(domain.name, domain.transfer?.last_check);
    },
    onSuccess: (latest) => {
      qc.setQueryData(domainKeys.detail(domain.name), latest);
      void qc.invalidateQueries({ queryKey: domainKeys.records(domain.name) });
      void qc.invalidateQueries({ queryKey: domainKeys.history(domain.name) });
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
    },
  });
}
