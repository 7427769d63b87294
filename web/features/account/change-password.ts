/** Changing one's own password, which takes the current one (a wrong one is a 400 on `current_password`). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { PasswordChange } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { accountKeys } from './keys';

export const changePassword = (input: PasswordChange) => request<void>('PUT', bff.password, { body: input });

export function useChangePassword() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The server may end the user's other sessions with the old password.
    onSuccess: () => void qc.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}
