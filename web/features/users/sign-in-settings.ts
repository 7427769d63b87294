/** The service's sign-in settings (administrators only): password sign-in on or off for everyone, and single sign-on as configured. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { bff } from '../../lib/paths';
import { signInMethodsKey } from '../../lib/sign-in-methods';

export interface SignInSettings {
  password: boolean;
  oidc: { name: string; issuer: string } | null;
}

export const signInSettingsKey = ['settings', 'sign-in'] as const;

export const signInSettingsQuery = queryOptions({ queryKey: signInSettingsKey, queryFn: ({ signal }) => request<SignInSettings>('GET', bff.signInSettings, { signal }) });

export const useSignInSettings = (enabled: boolean) => useQuery({ ...signInSettingsQuery, enabled });

export function useSetPasswordSignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: boolean) => request<SignInSettings>('PUT', bff.signInSettings, { body: { password } }),
    onSuccess: (s) => {
      qc.setQueryData(signInSettingsKey, s);
      void qc.invalidateQueries({ queryKey: signInMethodsKey });
    },
  });
}
