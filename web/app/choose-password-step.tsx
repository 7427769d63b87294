/**
 * The first thing after signing in with a password someone else chose (the one the first start
 * printed, or one an administrator generated or reset): choose your own. The server refuses every
 * other dashboard call until then, so nothing else is shown; the dashboard follows once it is done.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { ChangePasswordForm } from '../features/account/change-password-form';
import { SignInCard } from '../features/session/sign-in-card';
import { useSignOut } from '../features/session/sign-out';
import { sessionKey } from '../lib/get-session';
import type { SessionInfo } from '../lib/api-types';
import { usePageTitle } from '../lib/page-title';
import { routes } from '../lib/paths';

export function ChoosePasswordStep({ session }: { session: SessionInfo }) {
  usePageTitle('Choose a new password');
  const qc = useQueryClient();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <SignInCard title="Choose a new password">
      <p className="muted">
        You signed in as <strong>{session.username}</strong> with a password that was generated or set for you, which others may have seen (a terminal, a log, a message). Choose your own before you go
        on.
      </p>
      <ChangePasswordForm
        username={session.username}
        currentLabel="Password you signed in with"
        onChanged={() => qc.setQueryData<SessionInfo>(sessionKey, { ...session, password_change_required: false })}
      />
      <button type="button" className="btn btn-block" disabled={signOut.isPending} onClick={() => signOut.mutate(undefined, { onSettled: () => navigate(routes.signIn, { replace: true }) })}>
        Sign out
      </button>
    </SignInCard>
  );
}
