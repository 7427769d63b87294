/** Sign-in with a passkey alone: the browser offers the site's passkeys, the BFF checks the signature and starts the session. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request, setCsrfToken } from '../../lib/api-client';
import type { SessionInfo } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { sessionKey } from '../../lib/get-session';

export async function passkeySignIn(): Promise<SessionInfo> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = await request<Parameters<typeof startAuthentication>[0]['optionsJSON']>('POST', bff.passkeySignInOptions);
  const response = await startAuthentication({ optionsJSON });
  return request<SessionInfo>('POST', bff.passkeySignIn, { body: { response } });
}

export function usePasskeySignIn() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: passkeySignIn,
    onSuccess: (info) => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
      setCsrfToken(info.csrf_token);
      qc.setQueryData(sessionKey, info);
    },
  });
}
