/** Deleted zones: listed under "Deleted" for HISTORY_DAYS, restorable in one step. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DeletedDomainSchema } from '../../../server/api/zones/deleted-domains';
import { request, requestPage } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { ipKeys } from '../../lib/ip-keys';
import { domainKeys } from '../../lib/domain-keys';

export type DeletedDomain = z.output<typeof DeletedDomainSchema>;

export const DELETED_PER_PAGE = 10;

/** Query keys of the deleted zones: apart from `["domains", …]`, so a zone's own refresh never touches them. */
export const deletedKeys = {
  all: ['deleted-domains'] as const,
  page: (page: number) => ['deleted-domains', page] as const,
};

export async function listDeleted(page: number, signal?: AbortSignal) {
  const p = await requestPage<DeletedDomain>(bff.deletedDomains, { page, per_page: DELETED_PER_PAGE }, signal);
  const days = Number(p.headers?.get('x-restorable-days'));
  return { ...p, days: Number.isInteger(days) && days > 0 ? days : null };
}

export const useDeletedDomains = (page: number) => useQuery({ queryKey: deletedKeys.page(page), queryFn: ({ signal }) => listDeleted(page, signal), placeholderData: keepPreviousData });

/** How many days a deleted zone stays restorable (HISTORY_DAYS), as the API says; null until known. */
export function useRestorableDays(): number | null {
  return useDeletedDomains(1).data?.days ?? null;
}

export function useRestoreDomain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: DeletedDomain) => request<Domain>('POST', bff.restoreDomain(d.id), { body: {} }),
    onSuccess: (zone) => {
      qc.setQueryData(domainKeys.detail(zone.name), zone);
      void qc.invalidateQueries({ queryKey: domainKeys.lists });
      void qc.invalidateQueries({ queryKey: domainKeys.history(zone.name) });
      void qc.invalidateQueries({ queryKey: domainKeys.records(zone.name) });
      void qc.invalidateQueries({ queryKey: deletedKeys.all });
      void qc.invalidateQueries({ queryKey: ipKeys.usage });
    },
  });
}
