import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Domain } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';

export const getDomain = (name: string, signal?: AbortSignal) => request<Domain>('GET', bff.domain(name), { signal });

/** A secondary waiting for its first transfer is refetched every 2 s, so its page fills in when the transfer lands. */
export const domainQuery = (name: string) =>
  queryOptions({
    queryKey: domainKeys.detail(name),
    queryFn: ({ signal }) => getDomain(name, signal),
    refetchInterval: (q) => (q.state.data?.transfer?.state === 'refreshing' ? 2000 : false),
  });

export const useDomain = (name: string) => useQuery(domainQuery(name));
