/** One pool with its members' states, each node's results and the transitions; asked again every 5 s while its page is open. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Pool } from '../../lib/api-types';
import { domainKeys } from '../../lib/domain-keys';
import { bff } from '../../lib/paths';
import { POOL_POLL_MS } from '../../lib/list-pools';

export const getPool = (zone: string, pool: string, signal?: AbortSignal) => request<Pool>('GET', bff.pool(zone, pool), { signal });

export const poolQuery = (zone: string, pool: string) => queryOptions({ queryKey: domainKeys.pool(zone, pool), queryFn: ({ signal }) => getPool(zone, pool, signal), refetchInterval: POOL_POLL_MS });

export const usePool = (zone: string, pool: string) => useQuery(poolQuery(zone, pool));
