/** Every account's zones, a page at a time (administrators only: the server answers 403 to anyone else). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AccountZoneSchema } from '../../../server/api/zones/account-zones';
import { requestPage } from '../../lib/api-client';
import { bff } from '../../lib/paths';

export type AccountZone = z.output<typeof AccountZoneSchema>;

export const ACCOUNT_ZONES_PER_PAGE = 25;

export const accountZonesQuery = (search: string, page: number) =>
  queryOptions({
    queryKey: ['admin', 'zones', search, page] as const,
    queryFn: ({ signal }) => requestPage<AccountZone>(bff.accountZones, { search: search || undefined, page, per_page: ACCOUNT_ZONES_PER_PAGE }, signal),
    placeholderData: keepPreviousData,
  });

export const useAccountZones = (search: string, page: number, enabled: boolean) => useQuery({ ...accountZonesQuery(search, page), enabled });
