/** For each IP, the records of the user's zones that point into it (a BFF cross-reference). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { IpUsage } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { ipKeys } from '../../lib/ip-keys';

export const getIpUsage = (signal?: AbortSignal) => request<IpUsage[]>('GET', bff.ipUsage, { signal });

export const ipUsageQuery = queryOptions({
  queryKey: ipKeys.usage,
  queryFn: ({ signal }) => getIpUsage(signal),
  select: (rows) => new Map(rows.map((u) => [u.ip_id, u])),
});

export const useIpUsage = () => useQuery(ipUsageQuery);
