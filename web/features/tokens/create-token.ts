/**
 * Creating a token. The answer holds the secret, so it stays in this mutation's result only
 * (never in the query cache) and the form drops it with `reset()` once the user is done.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { ApiTokenCreate, ApiTokenCreated } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { tokenKeys } from './keys';

export const createToken = (input: ApiTokenCreate) => request<ApiTokenCreated>('POST', bff.tokens, { body: input });

export function useCreateToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => void qc.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
