/**
 * "Check from outside": the zone's delegation as resolvers see it and each listed name
 * server's serial, from GET …/delegation. The server keeps a result 30 s; "Check again" asks it to
 * renew (refresh=1) and puts the answer in the cache the card reads.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DelegationSchema } from '../../../server/api/zones/delegation';
import { request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';

export type Delegation = z.output<typeof DelegationSchema>;

/** Under the zone's key: a change to the zone refreshes it with the rest of the zone's data. */
export const delegationKey = (zone: string) => [...domainKeys.detail(zone), 'delegation-check'] as const;

const path = (zone: string) => `${bff.domain(zone)}/delegation`;

export const delegationQuery = (zone: string) =>
  queryOptions({
    queryKey: delegationKey(zone),
    queryFn: ({ signal }) => request<Delegation>('GET', path(zone), { signal }),
    // The server keeps a result this long anyway.
    staleTime: 30_000,
  });

export const useDelegation = (zone: string) => useQuery(delegationQuery(zone));

export function useCheckAgain(zone: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => request<Delegation>('GET', path(zone), { query: { refresh: 1 } }),
    onSuccess: (fresh) => qc.setQueryData(delegationKey(zone), fresh),
  });
}
