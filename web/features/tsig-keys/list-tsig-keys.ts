/** One page of the user's TSIG keys, oldest first, never a secret. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { TsigKey } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { tsigKeyKeys } from './keys';

export const TSIG_KEYS_PER_PAGE = 50;

export const listTsigKeys = (page: number, signal?: AbortSignal) => requestPage<TsigKey>(bff.tsigKeys, { page, per_page: TSIG_KEYS_PER_PAGE }, signal);

export const tsigKeysQuery = (page: number) =>
  queryOptions({ queryKey: tsigKeyKeys.page(page, TSIG_KEYS_PER_PAGE), queryFn: ({ signal }) => listTsigKeys(page, signal), placeholderData: keepPreviousData });

export const useTsigKeys = (page: number) => useQuery(tsigKeysQuery(page));
