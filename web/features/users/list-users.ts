/** One page of the service's users, optionally those whose name contains `search`. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { User } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { userKeys } from './keys';

export const USERS_PER_PAGE = 50;

export const listUsers = (search: string, page: number, signal?: AbortSignal) => requestPage<User>(bff.users, { search: search || undefined, page, per_page: USERS_PER_PAGE }, signal);

export const usersQuery = (search: string, page: number) =>
  queryOptions({ queryKey: userKeys.list(search, page, USERS_PER_PAGE), queryFn: ({ signal }) => listUsers(search, page, signal), placeholderData: keepPreviousData });

export const useUsers = (search: string, page: number, enabled = true) => useQuery({ ...usersQuery(search, page), enabled });
