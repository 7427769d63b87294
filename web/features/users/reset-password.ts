/** A new one-time password for a user, chosen by the server and shown once (kept in the mutation only). */
import { useMutation } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { NewPassword } from '../../lib/api-types';
import { bff } from '../../lib/paths';

export const resetPassword = (username: string) => request<NewPassword>('POST', bff.userPassword(username));

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
