/** The signed-in session: who, and the CSRF token for state-changing calls; null when signed out. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, request, setCsrfToken } from './api-client';
import type { SessionInfo } from './api-types';
import { bff } from './paths';

export const sessionKey = ['session'] as const;

export async function getSession(): Promise<SessionInfo | null> {
  try {
    const info = await request<SessionInfo>('GET', bff.session);
    setCsrfToken(info.csrf_token);
    return info;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      setCsrfToken(undefined);
      return null;
    }
    throw e;
  }
}

export const sessionQuery = queryOptions({ queryKey: sessionKey, queryFn: getSession, staleTime: Infinity });

export const useSession = () => useQuery(sessionQuery);
