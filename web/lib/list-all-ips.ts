/** Every IP of the user: for filtering across pages and for the record editor's suggestions. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestAll } from './api-client';
import type { Ip } from './api-types';
import { bff } from './paths';
import { ipKeys } from './ip-keys';

export const listAllIps = (signal?: AbortSignal) => requestAll<Ip>(bff.ips, {}, signal);

export const allIpsQuery = queryOptions({ queryKey: ipKeys.everything, queryFn: ({ signal }) => listAllIps(signal), staleTime: 60_000 });

export const useAllIps = (enabled = true) => useQuery({ ...allIpsQuery, enabled });
