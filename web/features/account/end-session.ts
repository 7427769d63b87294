/** Ending another of the user's sessions: that browser is signed out at its next click. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { AccountSession } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { accountKeys } from './keys';

export const endSession = (id: AccountSession['id']) => request<void>('DELETE', bff.accountSession(id));

export function useEndSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSuccess: () => void qc.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}
