/** One page of the user's API tokens, newest first, without the dashboard sessions' own (the Account page lists those); never a secret. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { ApiToken } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { tokenKeys } from './keys';

export const TOKENS_PER_PAGE = 50;

export const listTokens = (page: number, signal?: AbortSignal) => requestPage<ApiToken>(bff.tokens, { page, per_page: TOKENS_PER_PAGE, kind: 'api', order: 'newest' }, signal);

export const tokensQuery = (page: number) => queryOptions({ queryKey: tokenKeys.page(page, TOKENS_PER_PAGE), queryFn: ({ signal }) => listTokens(page, signal), placeholderData: keepPreviousData });

export const useTokens = (page: number) => useQuery(tokensQuery(page));
