/** Two-factor sign-in (TOTP, RFC 6238) of the signed-in user: its state, enrolment, recovery codes, removal. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { sessionKey } from '../../lib/get-session';
import { accountKeys } from './keys';

export interface SecondFactors {
  totp: 'off' | 'pending' | 'on';
  recovery_codes_left: number;
}

export const useSecondFactors = () => useQuery({ queryKey: accountKeys.secondFactors, queryFn: () => request<SecondFactors>('GET', bff.secondFactors) });

/** The factor changed: its state, and the session (REQUIRE_2FA's hold ends once a factor is on). */
function useRefresh() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: accountKeys.secondFactors });
    void qc.invalidateQueries({ queryKey: sessionKey });
  };
}

export const useStartTotp = () => useMutation({ mutationFn: () => request<{ secret: string; otpauth_uri: string }>('POST', bff.totp) });

export function useConfirmTotp() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (code: string) => request<{ recovery_codes: string[] }>('POST', bff.totpConfirm, { body: { code } }), onSuccess: refresh });
}

export function useRemoveTotp() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => request<void>('DELETE', bff.totp), onSuccess: refresh });
}

export function useNewRecoveryCodes() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => request<{ recovery_codes: string[] }>('POST', bff.recoveryCodes), onSuccess: refresh });
}
