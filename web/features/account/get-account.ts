/** Who is signed in, and whether they are an administrator (the shell shows the admin pages by it). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Account } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { accountKeys } from './keys';

export const getAccount = (signal?: AbortSignal) => request<Account>('GET', bff.account, { signal });

export const accountQuery = queryOptions({ queryKey: accountKeys.me, queryFn: ({ signal }) => getAccount(signal), staleTime: 60_000 });

export const useAccount = () => useQuery(accountQuery);
