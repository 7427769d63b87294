/** One change set with every record it added and removed (a list carries at most 1,000 a side). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { ChangeSet } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';

export const getChange = (domain: string, id: number, signal?: AbortSignal) => request<ChangeSet>('GET', bff.change(domain, id), { signal });

// A change set never changes once written.
export const changeQuery = (domain: string, id: number) => queryOptions({ queryKey: domainKeys.change(domain, id), queryFn: ({ signal }) => getChange(domain, id, signal), staleTime: Infinity });

export const useChange = (domain: string, id: number, enabled: boolean) => useQuery({ ...changeQuery(domain, id), enabled });
