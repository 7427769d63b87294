import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request, setCsrfToken } from '../../lib/api-client';
import type { SessionInfo } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { sessionKey } from '../../lib/get-session';

/** `code`: the second factor (a TOTP code or a recovery code), when the account has one. */
export async function signIn(input: { username: string; password: string; code?: string }): Promise<SessionInfo> {
  return request<SessionInfo>('POST', bff.signIn, { body: input });
}

export function useSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (info) => {
      // Whatever a previous user left in the cache is not this user's.
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
      setCsrfToken(info.csrf_token);
      qc.setQueryData(sessionKey, info);
    },
  });
}

/** One sign-in mutation for the page: its refusals are shown above the form, beside the other ways in. */
export type SignInMutation = ReturnType<typeof useSignIn>;
