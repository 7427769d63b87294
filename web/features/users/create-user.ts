/**
 * Creating a user. The answer holds their one-time password, so it stays in this mutation's
 * result only (never in the query cache), dropped with `reset()` once the admin has copied it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { UserCreate, UserCreated } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { userKeys } from './keys';

export const createUser = (input: UserCreate) => request<UserCreated>('POST', bff.users, { body: input });

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createUser, onSuccess: () => void qc.invalidateQueries({ queryKey: userKeys.all }) });
}
