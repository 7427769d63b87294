/**
 * Username and password, and the second factor's code once the server has said the account has
 * one (the password is kept then; any other refusal empties it). Empty fields are named on their
 * input before anything is sent.
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import type { SessionInfo } from '../../lib/api-types';
import { TextField } from '../../ui/field';
import { SecondFactorField } from './second-factor-field';
import type { SignInMutation } from './sign-in';

export function PasswordSignInForm({ signIn, onSignedIn }: { signIn: SignInMutation; onSignedIn: (info: SessionInfo) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState<{ username?: string; password?: string; code?: string }>({});
  // Set once the server said the account has a second factor: the form then asks for its code too.
  const [needsCode, setNeedsCode] = useState(false);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const m = { username: username.trim() ? undefined : 'is required', password: password ? undefined : 'is required', code: needsCode && !code.trim() ? 'is required' : undefined };
    setMissing(m);
    if (m.username || m.password || m.code) return;
    signIn.mutate(
      { username, password, ...(needsCode ? { code: code.trim() } : {}) },
      {
        onSuccess: onSignedIn,
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

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in">
      <TextField label="Username" name="username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.target.value)} error={missing.username} />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={missing.password} />
      {needsCode ? <SecondFactorField value={code} onChange={setCode} error={missing.code} /> : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
