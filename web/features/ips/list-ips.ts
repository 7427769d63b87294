/** One page of the user's IPs, as the API paginates them. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { Ip } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { ipKeys } from '../../lib/ip-keys';

export const listIps = (page: number, perPage: number, signal?: AbortSignal) => requestPage<Ip>(bff.ips, { page, per_page: perPage }, signal);

export const ipsPageQuery = (page: number, perPage: number) =>
  queryOptions({ queryKey: ipKeys.page(page, perPage), queryFn: ({ signal }) => listIps(page, perPage, signal), placeholderData: keepPreviousData });

export const useIpsPage = (page: number, perPage: number, enabled = true) => useQuery({ ...ipsPageQuery(page, perPage), enabled });
