/** Revoking one of the user's TSIG keys: messages signed with it are refused within a second. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { TsigKey } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { tsigKeyKeys } from './keys';

export const revokeTsigKey = (name: string) => request<TsigKey>('DELETE', bff.tsigKey(name));

export function useRevokeTsigKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: revokeTsigKey,
    onSuccess: () => void qc.invalidateQueries({ queryKey: tsigKeyKeys.all }),
  });
}
