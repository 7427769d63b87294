/**
 * Creating a TSIG key. The answer holds the secret, so it stays in this mutation's result only
 * (never in the query cache) and the form drops it with `reset()` once the user is done.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { TsigKeyCreate, TsigKeyCreated } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { tsigKeyKeys } from './keys';

export const createTsigKey = (input: TsigKeyCreate) => request<TsigKeyCreated>('POST', bff.tsigKeys, { body: input });

export function useCreateTsigKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createTsigKey,
    onSuccess: () => void qc.invalidateQueries({ queryKey: tsigKeyKeys.all }),
  });
}
