/** Disabling or enabling a user (a disabled one cannot sign in, nor can their tokens), granting or revoking admin. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { User } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { userKeys } from './keys';

export type UserPatch = { disabled: boolean } | { is_admin: boolean };

export const updateUser = ({ username, patch }: { username: string; patch: UserPatch }) => request<User>('PATCH', bff.user(username), { body: patch });

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateUser, onSuccess: () => void qc.invalidateQueries({ queryKey: userKeys.all }) });
}

/** Removes a user's second factors, passkeys included, and signs them out (after a lost phone): they sign in with their password alone until they enrol again. */
export function useResetSecondFactors() {
  return useMutation({ mutationFn: (username: string) => request<void>('DELETE', `${bff.user(username)}/second-factors`) });
}
