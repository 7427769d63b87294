/** What the sign-in page offers: the password form (unless an administrator turned it off), passkeys, and single sign-on with its label. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SignInMethods } from '../../server/services/identity/sign-in-settings';
import { request } from './api-client';
import { bff } from './paths';

export type { SignInMethods };

export const signInMethodsKey = ['sign-in-methods'] as const;

export const signInMethodsQuery = queryOptions({
  queryKey: signInMethodsKey,
  queryFn: ({ signal }) => request<SignInMethods>('GET', bff.signInMethods, { signal }),
  staleTime: 60_000,
});

export const useSignInMethods = () => useQuery(signInMethodsQuery);

/** What a refused single sign-on (`/sign-in?error=<code>`, or `/account?sso=<code>` for a link) means for the person at the screen. */
export const SSO_ERRORS: Record<string, string> = {
  sso_expired: 'That single sign-on attempt expired or was already used. Start again.',
  sso_failed: "The identity provider's answer could not be verified. Start again.",
  sso_denied: 'The identity provider did not sign you in.',
  sso_no_account: 'There is no account for this identity here. Ask an administrator to create one.',
  sso_not_linked: 'This identity is not linked to your account yet. Sign in with your password or a passkey, then link it on your Account page.',
  sso_taken: 'This identity already signs in to another account. Unlink it there first.',
  sso_disabled: 'This account is disabled. Ask an administrator.',
  sso_unavailable: 'The identity provider cannot be reached right now. Try again in a minute.',
};

export const ssoErrorWords = (code: string | null): string | null => (code === null ? null : (SSO_ERRORS[code] ?? 'Single sign-on did not work. Start again.'));
