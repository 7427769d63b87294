/**
 * The names of the user's TSIG keys, for pickers outside the keys' own page (a secondary zone's
 * transfer key). Under the keys' own query prefix, so creating or revoking a key refreshes it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from './api-client';
import type { TsigKey } from './api-types';
import { bff } from './paths';

export const tsigKeyNamesQuery = () =>
  queryOptions({
    queryKey: ['tsig-keys', 'names'] as const,
    queryFn: async ({ signal }) => (await requestPage<TsigKey>(bff.tsigKeys, { page: 1, per_page: 100 }, signal)).items.map((k) => k.name),
  });

export const useTsigKeyNames = () => useQuery(tsigKeyNamesQuery());
