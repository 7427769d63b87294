/**
 * The second step of a single sign-on for an account with a second factor: the provider said who
 * this is, and zonedeck asks for the authenticator app's code (or a recovery code) before the
 * session starts, or a passkey, which signs in on its own. Shown by the sign-in page at
 * `/sign-in?sso=second-factor` when the BFF holds such a sign-in for this browser.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, request, setCsrfToken } from '../../lib/api-client';
import type { SessionInfo } from '../../lib/api-types';
import { sessionKey } from '../../lib/get-session';
import { bff, routes, safeNext } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { LoadingState } from '../../ui/states';
import { usePasskeySignIn } from './passkey-sign-in';
import { SecondFactorField } from './second-factor-field';

interface HeldSignIn {
  username: string;
  totp: boolean;
  passkey: boolean;
}

export function SsoSecondFactor({ next, providerName }: { next: string; providerName: string }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const held = useQuery({ queryKey: ['sso-second-factor'], queryFn: ({ signal }) => request<HeldSignIn>('GET', bff.oidcSecondFactor, { signal }), retry: false, gcTime: 0 });
  const confirm = useMutation({
    mutationFn: (code: string) => request<SessionInfo & { next: string }>('POST', bff.oidcSecondFactor, { body: { code } }),
    onSuccess: (info) => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKey[0] });
      setCsrfToken(info.csrf_token);
      qc.setQueryData(sessionKey, info);
      navigate(info.enrolment_required ? routes.account : safeNext(info.next), { replace: true });
    },
  });
  const passkey = usePasskeySignIn();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState<string | undefined>();

  if (held.isPending) return <LoadingState label="Checking your sign-in…" />;
  if (held.isError) {
    return (
      <>
        <Alert title="This sign-in is over">It took too long, or was finished already. Start again.</Alert>
        <a className="btn btn-block" href={`${bff.oidcStart}?next=${encodeURIComponent(next)}`}>
          Sign in with {providerName}
        </a>
      </>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setMissing(code.trim() ? undefined : 'is required');
    if (code.trim()) confirm.mutate(code.trim(), { onError: () => setCode('') });
  };
  const expired = confirm.error instanceof ApiError && confirm.error.code === 'sso_expired';

  return (
    <>
      <Alert tone="info">
        {providerName} signed you in as <strong>{held.data.username}</strong>. This account has two-factor sign-in:{' '}
        {held.data.totp ? 'enter the code your authenticator app shows, or one of your recovery codes' : 'use your passkey'}.
      </Alert>
      {confirm.error && !expired ? <Alert title={confirm.error.message} /> : null}
      {expired ? <Alert title="This sign-in is over">It took too long, or was finished already. Start again.</Alert> : null}
      {held.data.totp ? (
        <form onSubmit={onSubmit} noValidate aria-label="Two-factor sign-in">
          <SecondFactorField value={code} onChange={setCode} error={missing} />
          <button type="submit" className="btn btn-primary btn-block" disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking…' : 'Continue'}
          </button>
        </form>
      ) : null}
      {held.data.passkey ? (
        <>
          {passkey.error ? <Alert title={passkey.error instanceof ApiError ? passkey.error.message : 'No passkey was used. Try again.'} /> : null}
          <button
            type="button"
            className="btn btn-block"
            disabled={passkey.isPending}
            onClick={() => passkey.mutate(undefined, { onSuccess: (info) => navigate(info.enrolment_required ? routes.account : next, { replace: true }) })}
          >
            {passkey.isPending ? 'Waiting for your passkey…' : 'Use your passkey'}
          </button>
        </>
      ) : null}
    </>
  );
}
