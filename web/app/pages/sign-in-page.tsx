/** Sign-in: username and password go to the BFF, which keeps the API token and sets an HttpOnly cookie. */
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useSession } from '../../features/session/get-session';
import { useSignIn } from '../../features/session/sign-in';
import { safeNext } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { LoadingState } from '../../ui/states';
import { usePageTitle } from '../../lib/page-title';

export function Component() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ username?: string; password?: string }>({});

  if (session.isPending) return <LoadingState label="Checking your session…" />;
  if (session.data) return <Navigate to={next} replace />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const m = { username: username.trim() ? undefined : 'is required', password: password ? undefined : 'is required' };
    setMissing(m);
    if (m.username || m.password) return;
    signIn.mutate({ username, password }, { onSuccess: () => navigate(next, { replace: true }), onError: () => setPassword('') });
  };

  return (
    <main className="sign-in" id="main">
      <div className="sign-in-card">
        <div className="brand brand-large">
          <img src="/favicon.svg" alt="" width="36" height="36" />
          <span>zonedeck</span>
        </div>
        <h1>Sign in</h1>
        <p className="muted">Manage your authoritative DNS zones.</p>
        {params.get('next') && !signIn.error ? <Alert tone="info">Sign in to continue.</Alert> : null}
        {signIn.error ? <Alert title={signIn.error.message} /> : null}
        <form onSubmit={onSubmit} noValidate aria-label="Sign in">
          <TextField label="Username" name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} error={missing.username} />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={missing.password} />
          <button type="submit" className="btn btn-primary btn-block" disabled={signIn.isPending}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p className="muted small">
          First start? The password of <code>admin</code> is in the server log. Scripts use API tokens instead: <code>npm run cli -- tokens create &lt;user&gt;</code>.
        </p>
      </div>
    </main>
  );
}
