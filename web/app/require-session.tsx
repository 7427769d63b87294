/** Pages behind sign-in: without a session, go to sign-in and come back here afterwards. */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../lib/get-session';
import { routes } from '../lib/paths';
import { ErrorState, LoadingState } from '../ui/states';
import { ChoosePasswordStep } from './choose-password-step';

export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <LoadingState label="Checking your session…" />;
  if (session.isError) return <ErrorState error={session.error} retry={() => void session.refetch()} title="Could not reach zonedeck" />;
  if (!session.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`${routes.signIn}?next=${encodeURIComponent(next)}`} replace />;
  }
  // A password someone else chose: the user's own comes first, before the shell (the server refuses the rest).
  if (session.data.password_change_required) return <ChoosePasswordStep session={session.data} />;
  // REQUIRE_2FA: until a second factor is enrolled, the Account page is the only page (the server refuses the rest).
  if (session.data.enrolment_required && location.pathname !== routes.account) return <Navigate to={routes.account} replace />;
  return children;
}
