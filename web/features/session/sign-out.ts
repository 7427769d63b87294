import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request, setCsrfToken } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { sessionKey } from '../../lib/get-session';

export const signOut = () => request<void>('POST', bff.signOut);

export function useSignOut() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: () => {
      setCsrfToken(undefined);
      qc.clear();
      qc.setQueryData(sessionKey, null);
    },
  });
}
