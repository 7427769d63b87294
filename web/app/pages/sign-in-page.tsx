/**
 * Sign-in: username and password go to the BFF, which keeps the API token and sets an HttpOnly
 * cookie; or a passkey; or single sign-on (a plain link through the provider and back), when the
 * server has it, followed by the account's second factor unless the server lets the provider
 * stand for it. The password form is hidden when an administrator turned password sign-in off.
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useSession } from '../../lib/get-session';
import { useSignIn } from '../../features/session/sign-in';
import { usePasskeySignIn } from '../../features/session/passkey-sign-in';
import { SsoSecondFactor } from '../../features/session/sso-second-factor';
import { ssoErrorWords, useSignInMethods } from '../../lib/sign-in-methods';
import { ApiError } from '../../lib/api-client';
import { bff, routes, safeNext } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';
import './sign-in-page.css';

export function Component() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const signIn = useSignIn();
  const passkey = usePasskeySignIn();
  const methods = useSignInMethods();
  const ssoError = ssoErrorWords(params.get('error'));
  // Until the server says otherwise (or if it cannot), the password form is offered.
  const passwordOn = methods.data?.password !== false;
  const oidc = methods.data?.oidc ?? null;
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState<{ username?: string; password?: string; code?: string }>({});
  // Set once the server said the account has a second factor: the form then asks for its code too.
  const [needsCode, setNeedsCode] = useState(false);

  // Back from the provider for an account with a second factor: that step first, whatever session this browser still holds.
  if (params.get('sso') === 'second-factor') {
    return (
      <main className="sign-in" id="main">
        <div className="sign-in-card">
          <div className="brand brand-large">
            <img src="/favicon.svg" alt="" width="36" height="36" />
            <span>zonedeck</span>
          </div>
          <h1>Sign in</h1>
          <SsoSecondFactor next={next} providerName={oidc?.name ?? 'single sign-on'} />
        </div>
      </main>
    );
  }
  if (session.isPending) return <LoadingState label="Checking your session…" />;
  if (session.data) return <Navigate to={next} replace />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const m = { username: username.trim() ? undefined : 'is required', password: password ? undefined : 'is required', code: needsCode && !code.trim() ? 'is required' : undefined };
    setMissing(m);
    if (m.username || m.password || m.code) return;
    signIn.mutate(
      { username, password, ...(needsCode ? { code: code.trim() } : {}) },
      {
        onSuccess: (info) => navigate(info.enrolment_required ? routes.account : next, { replace: true }),
        onError: (err) => {
          if (err instanceof ApiError && (err.code === 'second_factor_required' || err.code === 'invalid_second_factor')) {
            // The password was right: keep it, and ask for the code.
            setNeedsCode(true);
            setCode('');
            return;
          }
          setNeedsCode(false);
          setPassword('');
        },
      },
    );
  };
  const codeAsked = signIn.error instanceof ApiError && signIn.error.code === 'second_factor_required';

  return (
    <main className="sign-in" id="main">
      <div className="sign-in-card">
        <div className="brand brand-large">
          <img src="/favicon.svg" alt="" width="36" height="36" />
          <span>zonedeck</span>
        </div>
        <h1>Sign in</h1>
        <p className="muted">Manage your authoritative DNS zones.</p>
        {params.get('next') && !signIn.error && !ssoError ? <Alert tone="info">Sign in to continue.</Alert> : null}
        {ssoError && !signIn.error ? <Alert title="Single sign-on did not sign you in">{ssoError}</Alert> : null}
        {oidc ? (
          <>
            <a className="btn btn-block" href={`${bff.oidcStart}?next=${encodeURIComponent(next)}`}>
              Sign in with {oidc.name}
            </a>
            <div className="or-divider" aria-hidden="true">
              or
            </div>
          </>
        ) : null}
        {!passwordOn ? <Alert tone="info">Password sign-in is turned off on this server{oidc ? `: use ${oidc.name} or a passkey` : ': use a passkey'}.</Alert> : null}
        {signIn.error && !codeAsked ? <Alert title={signIn.error.message} /> : null}
        {codeAsked ? <Alert tone="info">This account has two-factor sign-in: enter the code your authenticator app shows, or one of your recovery codes.</Alert> : null}
        {passwordOn ? (
          <>
            <form onSubmit={onSubmit} noValidate aria-label="Sign in">
              <TextField label="Username" name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} error={missing.username} />
              <TextField label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={missing.password} />
              {needsCode ? (
                <TextField
                  label="Authentication code"
                  name="code"
                  autoComplete="one-time-code"
                  inputMode="text"
                  autoFocus
                  spellCheck={false}
                  hint="6 digits from your app, or a recovery code (xxxxx-xxxxx)"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  error={missing.code}
                />
              ) : null}
              <button type="submit" className="btn btn-primary btn-block" disabled={signIn.isPending}>
                {signIn.isPending ? 'Signing in…' : 'Sign in'}
              </button>
            </form>
            <div className="or-divider" aria-hidden="true">
              or
            </div>
          </>
        ) : null}
        {passkey.error ? <Alert title={passkey.error instanceof ApiError ? passkey.error.message : 'No passkey was used. Try again, or sign in with your password.'} /> : null}
        <button
          type="button"
          className="btn btn-block"
          disabled={passkey.isPending}
          onClick={() => passkey.mutate(undefined, { onSuccess: (info) => navigate(info.enrolment_required ? routes.account : next, { replace: true }) })}
        >
          {passkey.isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </button>
        <p className="muted small">
          First start? The password of <code>admin</code> is in the server log and in <code>data/admin-password</code>. Scripts use API tokens instead: <code>npm run cli -- tokens create &lt;user&gt;</code>.
        </p>
      </div>
    </main>
  );
}
