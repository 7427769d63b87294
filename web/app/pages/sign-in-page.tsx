/**
 * Sign-in: username and password go to the BFF, which keeps the API token and sets an HttpOnly
 * cookie; or a passkey; or single sign-on (a plain link through the provider and back), when the
 * server has it, followed by the account's second factor unless the server lets the provider
 * stand for it. The password form is hidden when an administrator turned password sign-in off.
 */
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useSession } from '../../lib/get-session';
import { useSignIn } from '../../features/session/sign-in';
import { usePasskeySignIn } from '../../features/session/passkey-sign-in';
import { PasswordSignInForm } from '../../features/session/password-sign-in-form';
import { OrDivider, SignInCard } from '../../features/session/sign-in-card';
import { SsoSecondFactor } from '../../features/session/sso-second-factor';
import { ssoErrorWords, useSignInMethods } from '../../lib/sign-in-methods';
import { ApiError } from '../../lib/api-client';
import type { SessionInfo } from '../../lib/api-types';
import { bff, routes, safeNext } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';
import { passkeyAddress } from '../../lib/passkey-origin';
import { PasskeyAddressNote } from '../../ui/passkey-address-note';

export function Component() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const signIn = useSignIn();
  const passkey = usePasskeySignIn();
  const atAddress = passkeyAddress(window.location);
  const methods = useSignInMethods();
  const ssoError = ssoErrorWords(params.get('error'));
  // Until the server says otherwise (or if it cannot), the password form is offered.
  const passwordOn = methods.data?.password !== false;
  const oidc = methods.data?.oidc ?? null;
  const navigate = useNavigate();
  const signedIn = (info: SessionInfo) => navigate(info.enrolment_required ? routes.account : next, { replace: true });

  // Back from the provider for an account with a second factor: that step first, whatever session this browser still holds.
  if (params.get('sso') === 'second-factor') {
    return (
      <SignInCard>
        <SsoSecondFactor next={next} providerName={oidc?.name ?? 'single sign-on'} />
      </SignInCard>
    );
  }
  // The methods are asked beside the session: no form is shown until both are known, so a method an
  // administrator turned off never flashes up (if the methods cannot be had, the password form is offered).
  if (session.isPending || methods.isPending) return <LoadingState label="Checking your session…" />;
  if (session.data) return <Navigate to={next} replace />;

  const codeAsked = signIn.error instanceof ApiError && signIn.error.code === 'second_factor_required';
  return (
    <SignInCard>
      <p className="muted">Manage your authoritative DNS zones.</p>
      {params.get('next') && !signIn.error && !ssoError ? <Alert tone="info">Sign in to continue.</Alert> : null}
      {ssoError && !signIn.error ? <Alert title="Single sign-on did not sign you in">{ssoError}</Alert> : null}
      {oidc ? (
        <>
          <a className="btn btn-block" href={`${bff.oidcStart}?next=${encodeURIComponent(next)}`}>
            Sign in with {oidc.name}
          </a>
          <OrDivider />
        </>
      ) : null}
      {!passwordOn ? <Alert tone="info">Password sign-in is turned off on this server{oidc ? `: use ${oidc.name} or a passkey` : ': use a passkey'}.</Alert> : null}
      {signIn.error && !codeAsked ? <Alert title={signIn.error.message} /> : null}
      {codeAsked ? <Alert tone="info">This account has two-factor sign-in: enter the code your authenticator app shows, or one of your recovery codes.</Alert> : null}
      {passwordOn ? (
        <>
          <PasswordSignInForm signIn={signIn} onSignedIn={signedIn} />
          <OrDivider />
        </>
      ) : null}
      {/* At an IP address the browser refuses every passkey: say why and where it works instead of "try again". */}
      {passkey.error && atAddress ? (
        <PasskeyAddressNote problem={atAddress} />
      ) : passkey.error ? (
        <Alert title={passkey.error instanceof ApiError ? passkey.error.message : 'No passkey was used. Try again, or sign in with your password.'} />
      ) : null}
      <button type="button" className="btn btn-block" disabled={passkey.isPending} onClick={() => passkey.mutate(undefined, { onSuccess: signedIn })}>
        {passkey.isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </button>
      <p className="muted small">
        First start? The password of <code>admin</code> is in the server log and in <code>data/admin-password</code>. Scripts use API tokens instead:{' '}
        <code>npm run cli -- tokens create &lt;user&gt;</code>.
      </p>
    </SignInCard>
  );
}
