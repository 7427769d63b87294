/** The user's live dashboard sessions (this one marked `current`), newest first. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { AccountSession } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { accountKeys } from './keys';

export const listSessions = (signal?: AbortSignal) => request<AccountSession[]>('GET', bff.sessions, { signal });

export const sessionsQuery = queryOptions({ queryKey: accountKeys.sessions, queryFn: ({ signal }) => listSessions(signal) });

export const useSessions = () => useQuery(sessionsQuery);
