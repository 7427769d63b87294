/** Revoking one of the user's tokens: requests with it answer 401 from then on. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { ApiToken } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { tokenKeys } from './keys';

export const revokeToken = (id: number) => request<ApiToken>('DELETE', bff.token(id));

export function useRevokeToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => void qc.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
